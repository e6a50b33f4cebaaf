package io.floe.application.service.work;

import io.floe.application.model.TooBusyException;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * How much heavy work (data previews, maintenance runs, scan planning: work the server does in
 * its own JVM for one request, reading data files) runs at once: at most {@code perOrg} pieces for
 * one org, and at most {@code total} for all orgs together. Past either, the request is refused at
 * once ({@link TooBusyException}, a 429 with {@code Retry-After}) rather than queued: a queue
 * would hold a request thread per waiting request, and one org's storm would still slow the
 * others. With {@code perOrg} below {@code total}, one org cannot take every place.
 *
 * <pre>{@code
 * try (OrgWorkBudget.Permit permit = budget.enter(orgId, "preview")) {
 *   ... the work ...
 * }
 * }</pre>
 */
public final class OrgWorkBudget {
  /** Pieces of heavy work one org may run at once, unless the operator says otherwise. */
  public static final int DEFAULT_PER_ORG = 2;

  private final int perOrg;
  private final int total;
  /** Pieces running, by org; an org with none has no entry. Guarded by {@code this}. */
  private final Map<UUID, Integer> running = new HashMap<>();
  private int runningTotal;

  public OrgWorkBudget(int perOrg, int total) {
    if (perOrg < 1 || total < perOrg) {
      throw new IllegalArgumentException("heavy work needs at least 1 place per org and at "
          + "least as many in total as per org, got " + perOrg + " per org and " + total
          + " in total");
    }
    this.perOrg = perOrg;
    this.total = total;
  }

  /**
   * {@link #DEFAULT_PER_ORG} per org; in total twice the processors the JVM may use, at least
   * twice the per-org limit, so that two orgs' work always fits.
   */
  public static OrgWorkBudget withDefaults(int perOrg) {
    return new OrgWorkBudget(perOrg, defaultTotal(perOrg));
  }

  public static int defaultTotal(int perOrg) {
    return Math.max(2 * perOrg, 2 * Runtime.getRuntime().availableProcessors());
  }

  public int perOrg() {
    return perOrg;
  }

  public int total() {
    return total;
  }

  /**
   * A place for one piece of {@code work} (named in the refusal, e.g. "preview") of {@code org},
   * held until the permit is closed.
   *
   * @throws TooBusyException when the org, or the server, runs as much as it may already
   */
  public Permit enter(UUID org, String work) {
    synchronized (this) {
      int mine = running.getOrDefault(org, 0);
      if (mine >= perOrg) {
        throw new TooBusyException("This org already runs " + mine + " previews, maintenance "
            + "runs or scan plans at once, the most one org may; the " + work + " was not "
            + "started: try again shortly");
      }
      if (runningTotal >= total) {
        throw new TooBusyException("The server already runs " + runningTotal + " previews, "
            + "maintenance runs or scan plans at once, the most it takes; the " + work
            + " was not started: try again shortly");
      }
      running.put(org, mine + 1);
      runningTotal++;
    }
    return new Permit(org);
  }

  private synchronized void leave(UUID org) {
    running.computeIfPresent(org, (key, count) -> count == 1 ? null : count - 1);
    runningTotal--;
  }

  /** Pieces of work {@code org} runs now. */
  public synchronized int running(UUID org) {
    return running.getOrDefault(org, 0);
  }

  /** A place taken; closing it (once, or more often to no effect) gives it back. */
  public final class Permit implements AutoCloseable {
    private final UUID org;
    private boolean closed;

    private Permit(UUID org) {
      this.org = org;
    }

    @Override
    public void close() {
      synchronized (OrgWorkBudget.this) {
        if (closed) {
          return;
        }
        closed = true;
      }
      leave(org);
    }
  }
}
