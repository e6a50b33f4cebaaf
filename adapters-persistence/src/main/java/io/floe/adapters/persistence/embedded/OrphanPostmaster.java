package io.floe.adapters.persistence.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a Floe that died without stopping its PostgreSQL ({@code kill -9}, a crash, a power loss)
 * leaves on a cluster, found and repaired before the next server starts on it. Only a caller
 * holding the cluster's {@link DataDirectoryLock} may ask: only then is no live Floe using it.
 *
 * <ul>
 *   <li>A PostgreSQL server still running on the cluster, the orphan of the dead Floe: stopped
 *       with a fast shutdown. A process is taken for one only when it is a {@code postgres}
 *       started with {@code -D} whose working directory (PostgreSQL works in its data directory)
 *       or {@code -D} argument is this cluster.
 *   <li>Processes of a server that was itself killed (they work in the data directory and end
 *       by themselves soon after their server): waited for, then ended.
 *   <li>A {@code postmaster.pid} whose number is now another program's (after a reboot it can
 *       belong to anything), or that is unreadable: removed, since PostgreSQL refuses to start
 *       while it names a live process; so is one naming a zombie (an ended server nobody reaped,
 *       which PostgreSQL takes for alive). One whose process is gone is left to PostgreSQL, which
 *       removes it itself after checking that no process still uses the old shared memory.
 * </ul>
 */
final class OrphanPostmaster {
  private static final Duration SHUTDOWN_WITHIN = Duration.ofSeconds(60);
  private static final Duration LEFTOVERS_END_WITHIN = Duration.ofSeconds(30);

  private final PostgresBinaries signaller;

  OrphanPostmaster(PostgresBinaries signaller) {
    this.signaller = signaller;
  }

  /** Repairs what it finds on {@code cluster}; returns a sentence for each finding. */
  List<String> repair(PostgresCluster cluster) {
    List<String> repairs = new ArrayList<>();
    List<ProcessHandle> processes = ProcessHandle.allProcesses()
        .filter(process -> worksOn(process, cluster.directory())).toList();
    for (ProcessHandle server : processes) {
      if (isServer(server)) {
        stop(server, cluster);
        repairs.add("stopped the PostgreSQL server (PID " + server.pid() + ") that an earlier "
            + "Floe process left running on " + cluster);
      }
    }
    List<ProcessHandle> leftovers = processes.stream()
        .filter(process -> !isServer(process) && isRunning(process)).toList();
    if (!leftovers.isEmpty()) {
      endLeftovers(leftovers);
      repairs.add("ended " + leftovers.size() + " processes that a killed PostgreSQL server of "
          + cluster + " left behind");
    }
    inspectPidFile(cluster).ifPresent(repairs::add);
    return repairs;
  }

  private void stop(ProcessHandle server, PostgresCluster cluster) {
    Postmaster.signal(signaller, server.pid(), "INT");
    if (awaitEnd(server, SHUTDOWN_WITHIN)) {
      return;
    }
    Postmaster.signal(signaller, server.pid(), "QUIT");
    if (!awaitEnd(server, Duration.ofSeconds(15))) {
      throw new IllegalStateException("the PostgreSQL server (PID " + server.pid() + ") that an "
          + "earlier Floe process left running on " + cluster + " does not stop; stop it, then "
          + "start Floe again");
    }
  }

  private static void endLeftovers(List<ProcessHandle> leftovers) {
    Instant deadline = Instant.now().plus(LEFTOVERS_END_WITHIN);
    for (ProcessHandle leftover : leftovers) {
      if (!awaitEnd(leftover, Duration.between(Instant.now(), deadline))) {
        leftover.destroyForcibly();
        awaitEnd(leftover, Duration.ofSeconds(5));
      }
    }
  }

  private static Optional<String> inspectPidFile(PostgresCluster cluster) {
    Path pidFile = cluster.pidFile();
    if (!Files.exists(pidFile)) {
      return Optional.empty();
    }
    Optional<Long> pid = readPid(pidFile);
    if (pid.isPresent()) {
      Optional<ProcessHandle> holder =
          ProcessHandle.of(pid.get()).filter(OrphanPostmaster::isRunning);
      boolean zombie = holder.isEmpty() && ProcessHandle.of(pid.get()).isPresent();
      if (zombie) {
        // A server that ended but was never reaped still answers PostgreSQL's liveness probe, so
        // PostgreSQL would refuse to start; it holds no shared memory, so its lock file can go.
        deletePidFile(pidFile);
        return Optional.of("removed the " + pidFile + " of a server that did not stop cleanly "
            + "(PID " + pid.get() + " ended but was never reaped); PostgreSQL recovers from its "
            + "write-ahead log");
      }
      if (holder.isEmpty()) {
        return Optional.of("the last PostgreSQL server on " + cluster + " did not stop cleanly "
            + "(its PID " + pid.get() + " is gone); PostgreSQL recovers from its write-ahead log");
      }
      if (isPostgres(holder.get()) && holder.get().info().arguments().isEmpty()) {
        // A PostgreSQL whose arguments cannot be read may be running on this cluster: removing
        // its lock file would let a second server start on the same files.
        throw new IllegalStateException("PID " + pid.get() + " is a PostgreSQL server that may "
            + "be running on " + cluster + "; stop it, then start Floe again");
      }
    }
    deletePidFile(pidFile);
    return Optional.of("removed the stale " + pidFile + " of a server that did not stop cleanly ("
        + pid.map(number -> "PID " + number + " is now another program ("
            + ProcessHandle.of(number).flatMap(process -> process.info().command())
                .orElse("unknown") + ")").orElse("it is unreadable") + ")");
  }

  private static void deletePidFile(Path pidFile) {
    try {
      Files.delete(pidFile);
    } catch (IOException e) {
      throw new IllegalStateException("cannot remove the stale " + pidFile, e);
    }
  }

  private static Optional<Long> readPid(Path pidFile) {
    try {
      List<String> lines = Files.readAllLines(pidFile);
      return lines.isEmpty() ? Optional.empty()
          : Optional.of(Long.parseLong(lines.get(0).strip()));
    } catch (IOException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** A running {@code postgres} that works in this cluster, or was started on it. */
  private static boolean worksOn(ProcessHandle process, Path cluster) {
    if (!isPostgres(process) || !isRunning(process)) {
      return false;
    }
    Optional<Path> workingDirectory = workingDirectory(process);
    if (workingDirectory.isPresent()) {
      return sameFile(workingDirectory.get(), cluster);
    }
    List<String> arguments = arguments(process);
    int flag = arguments.indexOf("-D");
    return flag >= 0 && flag + 1 < arguments.size()
        && Path.of(arguments.get(flag + 1)).isAbsolute()
        && sameFile(Path.of(arguments.get(flag + 1)), cluster);
  }

  /** The server itself: its children rename themselves and have no {@code -D}. */
  private static boolean isServer(ProcessHandle process) {
    return arguments(process).contains("-D");
  }

  private static List<String> arguments(ProcessHandle process) {
    return List.of(process.info().arguments().orElse(new String[0]));
  }

  private static boolean isPostgres(ProcessHandle process) {
    return process.info().command()
        .map(command -> Path.of(command).getFileName().toString().startsWith("postgres"))
        .orElse(false);
  }

  /** Where Linux says the process works; nothing elsewhere. */
  private static Optional<Path> workingDirectory(ProcessHandle process) {
    try {
      return Optional.of(Files.readSymbolicLink(Path.of("/proc", Long.toString(process.pid()),
          "cwd")));
    } catch (IOException | UnsupportedOperationException e) {
      return Optional.empty();
    }
  }

  private static boolean sameFile(Path a, Path b) {
    try {
      return Files.isSameFile(a, b);
    } catch (IOException e) {
      return a.toAbsolutePath().normalize().equals(b.toAbsolutePath().normalize());
    }
  }

  /**
   * Alive, and not a zombie: a stopped orphan belongs to whoever adopted it, which may never reap
   * it, and Java counts a zombie as alive.
   */
  static boolean isRunning(ProcessHandle process) {
    if (!Files.isDirectory(Path.of("/proc/self"))) {
      return process.isAlive(); // no /proc (macOS): as Java sees it
    }
    try {
      String fields = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
      char state = fields.charAt(fields.lastIndexOf(')') + 2);
      return state != 'Z' && state != 'X';
    } catch (IOException | RuntimeException e) {
      return false; // gone
    }
  }

  private static boolean awaitEnd(ProcessHandle process, Duration within) {
    Instant deadline = Instant.now().plus(within);
    while (isRunning(process)) {
      if (Instant.now().isAfter(deadline)) {
        return false;
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while stopping PostgreSQL", e);
      }
    }
    return true;
  }
}
