package io.floe.adapters.icechunk.port;

import io.floe.adapters.icechunk.engine.IcechunkException;
import io.floe.adapters.icechunk.engine.IcechunkNotFoundException;
import io.floe.adapters.icechunk.format.IcechunkFormatException;
import io.floe.adapters.icechunk.icechest.MalformedTablesException;
import io.floe.application.port.out.MalformedRepoException;
import io.floe.application.port.out.RepoContentNotFoundException;
import io.floe.application.port.out.StorageException;
import java.util.function.Supplier;

/**
 * This module's errors as the application's: missing things not-found, a history that breaks the
 * icechest convention where a write needs it a malformed repo (a conflict), the rest storage
 * errors.
 */
final class ApplicationErrors {
  private ApplicationErrors() {}

  static <T> T translated(Supplier<T> work) {
    try {
      return work.get();
    } catch (IcechunkNotFoundException e) {
      throw new RepoContentNotFoundException(e.getMessage());
    } catch (MalformedTablesException e) {
      throw new MalformedRepoException(e.getMessage());
    } catch (IcechunkException | IcechunkFormatException e) {
      throw new StorageException(e.getMessage(), e);
    }
  }
}
