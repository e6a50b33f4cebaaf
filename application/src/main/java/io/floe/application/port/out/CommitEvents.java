package io.floe.application.port.out;

/** Hears how commits fare under contention: what the commit metrics count. */
public interface CommitEvents {
  CommitEvents NONE = new CommitEvents() {
    @Override
    public void lostRace() {}

    @Override
    public void plannedUnderLocks() {}

    @Override
    public void refused() {}
  };

  /** An attempt lost the race for a pointer to another writer; the change is planned again. */
  void lostRace();

  /** After lost races, a change was planned again while holding its objects' row locks. */
  void plannedUnderLocks();

  /** A change was refused as a conflict (409): a requirement no longer held, say. */
  void refused();
}
