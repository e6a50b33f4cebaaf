package io.floe.application.port.out.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.floe.application.port.out.RepoCommitLocks;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.FutureTask;
import org.junit.jupiter.api.Test;

/** {@link RepoCommitLocks}: one transaction at a time per branch, held until it ends. */
public abstract class RepoCommitLocksContract extends PortContract {
  private final UUID repo = UUID.randomUUID();

  private RepoCommitLocks locks() {
    return ports().repoCommitLocks();
  }

  @Test
  void aSecondTransactionWaitsForTheBranchUntilTheFirstEnds() {
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    FutureTask<Void> second = ports().unitOfWork().inTransaction(() -> {
      locks().lockBranch(repo, "main");
      FutureTask<Void> started = Concurrently.start(() -> ports().unitOfWork().inTransaction(
          () -> {
            locks().lockBranch(repo, "main");
            events.add("second holds main");
            return null;
          }));
      Concurrently.grace();
      events.add("first ends");
      return started;
    });
    Concurrently.result(second);
    assertThat(events).containsExactly("first ends", "second holds main");
  }

  @Test
  void anotherBranchOrAnotherRepoDoesNotWait() {
    assumeTrue(ports().locksRows(), "this backend serializes whole transactions");
    boolean otherGotThrough = ports().unitOfWork().inTransaction(() -> {
      locks().lockBranch(repo, "main");
      return Concurrently.result(Concurrently.start(() -> ports().unitOfWork().inTransaction(
          () -> {
            locks().lockBranch(repo, "dev");
            locks().lockBranch(UUID.randomUUID(), "main");
            return true;
          })));
    });
    assertThat(otherGotThrough).isTrue();
  }

  @Test
  void aTransactionThatFailsReleasesTheBranch() {
    assertThatThrownBy(() -> ports().unitOfWork().inTransaction(() -> {
      locks().lockBranch(repo, "main");
      throw new IllegalStateException("the commit failed");
    })).hasMessage("the commit failed");

    boolean taken = Concurrently.result(Concurrently.start(() -> ports().unitOfWork()
        .inTransaction(() -> {
          locks().lockBranch(repo, "main");
          return true;
        })));
    assertThat(taken).isTrue();
  }
}
