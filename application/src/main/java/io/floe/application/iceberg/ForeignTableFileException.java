package io.floe.application.iceberg;

import io.floe.application.port.out.RefusedLocationException;
import java.util.Optional;

/**
 * The server was about to read, write or delete a file on a table's behalf that lies outside the
 * table's root ({@link TableBoundary}): the table's metadata or one of its manifests names a file
 * of another table or of no table at all. The file is not touched. It is a refusal (a 4xx, as
 * every {@link RefusedLocationException}), never a server failure: the metadata a writer
 * committed asks for something the server will not do.
 */
public final class ForeignTableFileException extends RefusedLocationException {
  /** How much of a refused location the message repeats. */
  private static final int SHOWN = 512;

  private final String location;
  private final String rootUri;

  public ForeignTableFileException(String location, String rootUri) {
    super("The table's metadata names the file '" + shown(location) + "', which lies outside the "
        + "table's location '" + rootUri + "'; Floe reads, rewrites and deletes only files under "
        + "a table's own location");
    this.location = location;
    this.rootUri = rootUri;
  }

  /** The refused location, as the metadata spelled it. */
  public String location() {
    return location;
  }

  /** The root of the table the file was refused for. */
  public String rootUri() {
    return rootUri;
  }

  /** The refusal {@code error} is or was caused by, however a reader wrapped it. */
  public static Optional<ForeignTableFileException> in(Throwable error) {
    for (Throwable cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof ForeignTableFileException foreign) {
        return Optional.of(foreign);
      }
      if (cause.getCause() == cause) {
        break;
      }
    }
    return Optional.empty();
  }

  private static String shown(String location) {
    if (location == null) {
      return "null";
    }
    String printable = location.replaceAll("\\p{Cntrl}", "?");
    return printable.length() > SHOWN ? printable.substring(0, SHOWN) + "…" : printable;
  }
}
