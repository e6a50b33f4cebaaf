package io.floe.application.port.out;

import io.floe.application.model.ChangeEvent;
import io.floe.application.model.ChangeFilter;
import io.floe.application.model.FeedPosition;
import java.time.Instant;
import java.util.List;
import java.util.UUID;

/**
 * Each org's committed changes, in feed order. The feed is what the audit log recorded: every
 * change writes its entries in its own transaction ({@link AuditLog#append}), and the feed serves
 * them once that transaction committed; a change that rolled back never appears.
 */
public interface ChangeFeed {
  /**
   * Up to {@code limit} of the org's events after {@code after} that match {@code filter}, recorded
   * at or after {@code notBefore}, in feed order. Every backend keeps this rule: an event served
   * once never has an event of a lower position appear after it (a backend serves only what no
   * running transaction can still precede).
   */
  List<ChangeEvent> after(UUID orgId, FeedPosition after, ChangeFilter filter, Instant notBefore,
      int limit);
}
