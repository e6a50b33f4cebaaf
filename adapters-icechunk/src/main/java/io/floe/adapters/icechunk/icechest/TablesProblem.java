package io.floe.adapters.icechunk.icechest;

/** Why a snapshot's tables are malformed: one finding, naming the table or group concerned. */
public record TablesProblem(Kind kind, String subject, String detail) {

  public enum Kind {
    /** A declared table has no pointer in this snapshot's commit metadata. */
    MISSING_POINTER,
    /** Two groups declare a table of the same name; pointers are keyed by name only. */
    DUPLICATE_TABLE,
    /** A group lists the convention but its attributes do not follow the schema. */
    INVALID_DECLARATION,
    /** iceberg:table_versions is not an object of metadata.json URIs. */
    INVALID_POINTERS
  }

  @Override
  public String toString() {
    return kind + " " + subject + ": " + detail;
  }
}
