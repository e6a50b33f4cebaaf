package io.floe.application.model;

import java.util.List;
import java.util.OptionalLong;

/**
 * A page of audit entries, newest first; {@code nextBefore} is where the next page starts (the
 * query's {@code before}), absent on the last page. Entries recorded meanwhile are newer than
 * every page already read, so paging on never repeats or skips an entry.
 */
public record AuditPage(List<AuditEntry> entries, OptionalLong nextBefore) {
  public AuditPage {
    entries = List.copyOf(entries);
  }
}
