package io.floe.adapters.persistence.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The claim of one Floe process on a cluster: an exclusive lock on {@code postgres.lock}, which
 * the operating system releases when the process ends, however it ends. Whoever holds it knows
 * that any PostgreSQL still running on the cluster was left behind by a Floe that is gone.
 */
final class DataDirectoryLock implements AutoCloseable {
  private final FileChannel channel;
  private final FileLock lock;

  private DataDirectoryLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  static DataDirectoryLock acquire(Path lockFile) {
    FileChannel channel = null;
    try {
      channel = FileChannel.open(lockFile, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
          StandardOpenOption.READ);
      FileLock lock = channel.tryLock();
      if (lock == null) {
        throw new IllegalStateException(inUse(lockFile));
      }
      channel.truncate(0);
      channel.write(ByteBuffer.wrap((ProcessHandle.current().pid() + "\n")
          .getBytes(StandardCharsets.UTF_8)));
      return new DataDirectoryLock(channel, lock);
    } catch (OverlappingFileLockException e) {
      close(channel);
      throw new IllegalStateException(inUse(lockFile), e);
    } catch (IOException e) {
      close(channel);
      throw new UncheckedIOException("cannot lock " + lockFile, e);
    } catch (RuntimeException e) {
      close(channel);
      throw e;
    }
  }

  private static String inUse(Path lockFile) {
    return "another Floe process runs the embedded PostgreSQL of this data directory (it holds "
        + lockFile + "); stop it first";
  }

  private static void close(FileChannel channel) {
    if (channel != null) {
      try {
        channel.close();
      } catch (IOException ignored) {
        // closing after a failure: the failure is what gets reported
      }
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
    } catch (IOException ignored) {
      // the channel's close releases it too
    }
    close(channel);
  }
}
