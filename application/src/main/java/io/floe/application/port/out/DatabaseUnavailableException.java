package io.floe.application.port.out;

import org.apache.iceberg.exceptions.ServiceUnavailableException;

/**
 * The catalog database could not be reached (refused, restarting, its connection lost) before
 * anything was committed: nothing this request asked for was written, so it may be sent again as
 * it is. The APIs answer 503 with {@code Retry-After}.
 */
public class DatabaseUnavailableException extends ServiceUnavailableException {
  public DatabaseUnavailableException(Throwable cause) {
    super(cause, "The catalog database cannot be reached right now; nothing was changed. "
        + "Retry shortly");
  }
}
