package io.floe.adapters.icechunk.icechest;

import io.floe.adapters.icechunk.engine.IcechunkException;
import io.floe.adapters.icechunk.format.ObjectId12;
import java.util.List;

/**
 * The store breaks the convention where it matters for the request: a declared table without a
 * pointer, say. Never answered by falling back to another snapshot's pointer.
 */
public class MalformedTablesException extends IcechunkException {
  private final ObjectId12 snapshot;
  private final List<TablesProblem> problems;

  public MalformedTablesException(ObjectId12 snapshot, List<TablesProblem> problems) {
    super("snapshot " + snapshot + " breaks the Icechunk-Iceberg convention: " + problems);
    this.snapshot = snapshot;
    this.problems = List.copyOf(problems);
  }

  public ObjectId12 snapshot() {
    return snapshot;
  }

  public List<TablesProblem> problems() {
    return problems;
  }
}
