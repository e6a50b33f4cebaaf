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
 * leaves on a cluster, found and repaired before the next server starts on it:
 *
 * <ul>
 *   <li>a PostgreSQL server still running on the cluster: the orphan of the dead Floe, stopped
 *       with a fast shutdown. Only a caller holding the cluster's {@link DataDirectoryLock} may
 *       ask, since only then is no live Floe using that server;
 *   <li>a {@code postmaster.pid} whose process is gone, or is now another program (after a
 *       reboot its number can belong to anything): removed, since PostgreSQL would refuse to
 *       start while a live process has that number.
 * </ul>
 *
 * A process is taken for a server of this cluster only when it is a {@code postgres} started
 * with {@code -D} and its working directory (PostgreSQL works in its data directory) or its
 * {@code -D} argument is this cluster.
 */
final class OrphanPostmaster {
  private static final Duration SHUTDOWN_WITHIN = Duration.ofSeconds(60);

  private final PostgresBinaries signaller;

  OrphanPostmaster(PostgresBinaries signaller) {
    this.signaller = signaller;
  }

  /** Repairs what it finds on {@code cluster}; returns a sentence for each repair. */
  List<String> repair(PostgresCluster cluster) {
    List<String> repairs = new ArrayList<>();
    List<ProcessHandle> orphans = ProcessHandle.allProcesses()
        .filter(process -> isServerOf(process, cluster.directory())).toList();
    for (ProcessHandle orphan : orphans) {
      stop(orphan, cluster);
      repairs.add("stopped the PostgreSQL server (PID " + orphan.pid() + ") that an earlier Floe "
          + "process left running on " + cluster);
    }
    removeStalePidFile(cluster).ifPresent(repairs::add);
    return repairs;
  }

  private void stop(ProcessHandle orphan, PostgresCluster cluster) {
    Postmaster.signal(signaller, orphan.pid(), "INT");
    if (awaitEnd(orphan, SHUTDOWN_WITHIN)) {
      return;
    }
    Postmaster.signal(signaller, orphan.pid(), "QUIT");
    if (!awaitEnd(orphan, Duration.ofSeconds(15))) {
      throw new IllegalStateException("the PostgreSQL server (PID " + orphan.pid() + ") that an "
          + "earlier Floe process left running on " + cluster + " does not stop; stop it, then "
          + "start Floe again");
    }
  }

  private static Optional<String> removeStalePidFile(PostgresCluster cluster) {
    Path pidFile = cluster.pidFile();
    if (!Files.exists(pidFile)) {
      return Optional.empty();
    }
    Optional<Long> pid = readPid(pidFile);
    Optional<ProcessHandle> holder =
        pid.flatMap(ProcessHandle::of).filter(OrphanPostmaster::isRunning);
    if (holder.isPresent() && isPostgres(holder.get())
        && holder.get().info().arguments().isEmpty()) {
      // A PostgreSQL whose arguments cannot be read may be running on this cluster: removing
      // its lock file would let a second server start on the same files.
      throw new IllegalStateException("PID " + holder.get().pid() + " is a PostgreSQL server "
          + "that may be running on " + cluster + "; stop it, then start Floe again");
    }
    try {
      Files.delete(pidFile);
    } catch (IOException e) {
      throw new IllegalStateException("cannot remove the stale " + pidFile, e);
    }
    String why = pid.isEmpty() ? "it is unreadable"
        : holder.isEmpty() ? "PID " + pid.get() + " is no longer running"
        : "PID " + pid.get() + " is now another program ("
            + holder.get().info().command().orElse("unknown") + ")";
    return Optional.of("removed the stale " + pidFile + " of a server that did not stop "
        + "cleanly (" + why + ")");
  }

  private static Optional<Long> readPid(Path pidFile) {
    try {
      List<String> lines = Files.readAllLines(pidFile);
      return lines.isEmpty() ? Optional.empty() : Optional.of(Long.parseLong(lines.get(0).strip()));
    } catch (IOException | NumberFormatException | java.io.UncheckedIOException e) {
      return Optional.empty();
    }
  }

  private static boolean isServerOf(ProcessHandle process, Path cluster) {
    if (!isPostgres(process) || !isRunning(process)) {
      return false;
    }
    List<String> arguments = List.of(process.info().arguments().orElse(new String[0]));
    int flag = arguments.indexOf("-D");
    if (flag < 0 || flag + 1 >= arguments.size()) {
      return false; // PostgreSQL's own child processes rename themselves and have no -D
    }
    Optional<Path> workingDirectory = workingDirectory(process);
    if (workingDirectory.isPresent()) {
      return sameFile(workingDirectory.get(), cluster);
    }
    Path named = Path.of(arguments.get(flag + 1));
    return named.isAbsolute() && sameFile(named, cluster);
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
