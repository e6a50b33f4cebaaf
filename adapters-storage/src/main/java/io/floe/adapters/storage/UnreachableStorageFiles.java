package io.floe.adapters.storage;

import io.floe.adapters.storage.shared.StorageBulkhead;
import io.floe.adapters.storage.shared.StorageFailures;
import io.floe.domain.BucketConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * Metadata files whose store cannot be reached, is busy or refuses the server say so: a failure
 * anywhere while one is opened, read or written becomes what {@link StorageFailures} makes of
 * it, whichever platform's FileIO it came from; other failures pass unchanged. Every call to the
 * store goes through the bucket's {@link StorageBulkhead}.
 */
final class UnreachableStorageFiles {
  private UnreachableStorageFiles() {}

  @FunctionalInterface
  interface IoCall<T> {
    T call() throws IOException;
  }

  @FunctionalInterface
  interface IoRun {
    void run() throws IOException;
  }

  /** A bucket's files and the bulkhead its store's calls go through. */
  record Guard(BucketConfig bucket, StorageBulkhead bulkhead) {}

  static <T> T translated(Guard guard, String what, IoCall<T> call) throws IOException {
    try {
      return guard.bulkhead().call(guard.bucket(), call::call);
    } catch (IOException | RuntimeException e) {
      if (StorageFailures.isKnown(e)) {
        throw StorageFailures.of(guard.bucket(), what, e instanceof RuntimeException runtime
            ? runtime : new UncheckedIOException((IOException) e));
      }
      throw e;
    }
  }

  static void run(Guard guard, String what, IoRun run) throws IOException {
    translated(guard, what, () -> {
      run.run();
      return null;
    });
  }

  /** For calls that declare no checked exception. */
  static <T> T unchecked(Guard guard, String what, IoCall<T> call) {
    try {
      return translated(guard, what, call);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static InputFile input(Guard guard, InputFile file) {
    String what = "could not read '" + file.location() + "'";
    return new InputFile() {
      @Override
      public long getLength() {
        return unchecked(guard, what, file::getLength);
      }

      @Override
      public SeekableInputStream newStream() {
        return stream(guard, what, unchecked(guard, what, file::newStream));
      }

      @Override
      public String location() {
        return file.location();
      }

      @Override
      public boolean exists() {
        return unchecked(guard, what, file::exists);
      }
    };
  }

  static OutputFile output(Guard guard, OutputFile file) {
    String what = "could not write '" + file.location() + "'";
    return new OutputFile() {
      @Override
      public PositionOutputStream create() {
        return stream(guard, what, unchecked(guard, what, file::create));
      }

      @Override
      public PositionOutputStream createOrOverwrite() {
        return stream(guard, what, unchecked(guard, what, file::createOrOverwrite));
      }

      @Override
      public String location() {
        return file.location();
      }

      @Override
      public InputFile toInputFile() {
        return input(guard, file.toInputFile());
      }
    };
  }

  private static SeekableInputStream stream(Guard guard, String what,
      SeekableInputStream in) {
    return new SeekableInputStream() {
      @Override
      public long getPos() throws IOException {
        return translated(guard, what, in::getPos);
      }

      @Override
      public void seek(long newPos) throws IOException {
        run(guard, what, () -> in.seek(newPos));
      }

      @Override
      public int read() throws IOException {
        return translated(guard, what, in::read);
      }

      @Override
      public int read(byte[] buffer, int offset, int length) throws IOException {
        return translated(guard, what, () -> in.read(buffer, offset, length));
      }

      @Override
      public void close() throws IOException {
        run(guard, what, in::close);
      }
    };
  }

  private static PositionOutputStream stream(Guard guard, String what,
      PositionOutputStream out) {
    return new PositionOutputStream() {
      @Override
      public long getPos() throws IOException {
        return translated(guard, what, out::getPos);
      }

      @Override
      public long storedLength() throws IOException {
        return translated(guard, what, out::storedLength);
      }

      @Override
      public void write(int b) throws IOException {
        run(guard, what, () -> out.write(b));
      }

      @Override
      public void write(byte[] buffer, int offset, int length) throws IOException {
        run(guard, what, () -> out.write(buffer, offset, length));
      }

      @Override
      public void flush() throws IOException {
        run(guard, what, out::flush);
      }

      @Override
      public void close() throws IOException {
        run(guard, what, out::close);
      }
    };
  }
}
