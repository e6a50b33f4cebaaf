package io.floe.application.service.maintenance;

import java.time.Duration;
import java.util.Objects;
import java.util.stream.Stream;
import org.apache.iceberg.exceptions.BadRequestException;

/**
 * The shortest grace period orphan removal may use on this server: the one place that decides
 * it. A file a writer has stored but not yet committed is unreferenced, so only its age protects
 * it; the grace period must outlast any write that can still commit. So the floor is the largest
 * of {@link #MINIMUM} (Iceberg's own: Spark's {@code remove_orphan_files} refuses anything under
 * a day), the longest a write credential, a remote-signing signature or a maintenance job's token
 * that Floe hands out lasts, and what the operator raised it to. Setting a policy or asking for a
 * run below it is a 400 naming it; a policy set before the floor was raised runs at the floor.
 */
public record OrphanGraceFloor(Duration floor) {
  /** Iceberg's own floor for orphan removal. */
  public static final Duration MINIMUM = Duration.ofHours(24);
  public static final OrphanGraceFloor DEFAULT = new OrphanGraceFloor(MINIMUM);

  public OrphanGraceFloor {
    Objects.requireNonNull(floor, "floor");
    if (floor.compareTo(MINIMUM) < 0) {
      throw new IllegalArgumentException("the orphan grace floor cannot be under " + MINIMUM);
    }
  }

  /**
   * The floor of a server whose operator asked for {@code operator} and whose write accesses
   * (credentials, signatures, tokens) last at most the {@code accessLifetimes}.
   */
  public static OrphanGraceFloor of(Duration operator, Duration... accessLifetimes) {
    return new OrphanGraceFloor(Stream.concat(Stream.of(MINIMUM, operator),
        Stream.of(accessLifetimes)).max(Duration::compareTo).orElseThrow());
  }

  /** Refuses a grace period under the floor, naming it. */
  public void require(Duration grace, String what) {
    if (grace.compareTo(floor) < 0) {
      throw new BadRequestException("%s (%d seconds) is under this server's floor of %d seconds "
          + "(%s): a younger unreferenced file may be one a writer stored and has not committed "
          + "yet", what, grace.toSeconds(), floor.toSeconds(), floor);
    }
  }

  /** {@code grace}, or the floor when it is shorter. */
  public Duration atLeast(Duration grace) {
    return grace.compareTo(floor) < 0 ? floor : grace;
  }
}
