package io.floe.adapters.icechunk;

import io.floe.adapters.icechunk.format.IcechunkFormatException;
import io.floe.application.port.out.RepoContentNotFoundException;
import io.floe.application.port.out.StorageException;
import java.util.function.Supplier;

/** This module's errors as the application's: missing things not-found, the rest storage errors. */
final class ApplicationErrors {
  private ApplicationErrors() {}

  static <T> T translated(Supplier<T> work) {
    try {
      return work.get();
    } catch (IcechunkNotFoundException e) {
      throw new RepoContentNotFoundException(e.getMessage());
    } catch (IcechunkException | IcechunkFormatException e) {
      throw new StorageException(e.getMessage(), e);
    }
  }
}
