package io.floe.adapters.storage;

import io.floe.adapters.storage.shared.StorageFailures;
import io.floe.domain.BucketConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * Metadata files whose store cannot be reached say so: a connection failure anywhere while one
 * is opened, read or written becomes {@link StorageFailures}' unavailable storage, whichever
 * platform's FileIO it came from. Other failures pass unchanged.
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

  static <T> T translated(BucketConfig bucket, String what, IoCall<T> call) throws IOException {
    try {
      return call.call();
    } catch (IOException | RuntimeException e) {
      if (StorageFailures.isUnreachable(e)) {
        throw StorageFailures.of(bucket, what, e instanceof RuntimeException runtime ? runtime
            : new UncheckedIOException((IOException) e));
      }
      throw e;
    }
  }

  static void run(BucketConfig bucket, String what, IoRun run) throws IOException {
    translated(bucket, what, () -> {
      run.run();
      return null;
    });
  }

  /** For calls that declare no checked exception. */
  static <T> T unchecked(BucketConfig bucket, String what, IoCall<T> call) {
    try {
      return translated(bucket, what, call);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static InputFile input(BucketConfig bucket, InputFile file) {
    String what = "could not read '" + file.location() + "'";
    return new InputFile() {
      @Override
      public long getLength() {
        return unchecked(bucket, what, file::getLength);
      }

      @Override
      public SeekableInputStream newStream() {
        return stream(bucket, what, unchecked(bucket, what, file::newStream));
      }

      @Override
      public String location() {
        return file.location();
      }

      @Override
      public boolean exists() {
        return unchecked(bucket, what, file::exists);
      }
    };
  }

  static OutputFile output(BucketConfig bucket, OutputFile file) {
    String what = "could not write '" + file.location() + "'";
    return new OutputFile() {
      @Override
      public PositionOutputStream create() {
        return stream(bucket, what, unchecked(bucket, what, file::create));
      }

      @Override
      public PositionOutputStream createOrOverwrite() {
        return stream(bucket, what, unchecked(bucket, what, file::createOrOverwrite));
      }

      @Override
      public String location() {
        return file.location();
      }

      @Override
      public InputFile toInputFile() {
        return input(bucket, file.toInputFile());
      }
    };
  }

  private static SeekableInputStream stream(BucketConfig bucket, String what,
      SeekableInputStream in) {
    return new SeekableInputStream() {
      @Override
      public long getPos() throws IOException {
        return translated(bucket, what, in::getPos);
      }

      @Override
      public void seek(long newPos) throws IOException {
        run(bucket, what, () -> in.seek(newPos));
      }

      @Override
      public int read() throws IOException {
        return translated(bucket, what, in::read);
      }

      @Override
      public int read(byte[] buffer, int offset, int length) throws IOException {
        return translated(bucket, what, () -> in.read(buffer, offset, length));
      }

      @Override
      public void close() throws IOException {
        run(bucket, what, in::close);
      }
    };
  }

  private static PositionOutputStream stream(BucketConfig bucket, String what,
      PositionOutputStream out) {
    return new PositionOutputStream() {
      @Override
      public long getPos() throws IOException {
        return translated(bucket, what, out::getPos);
      }

      @Override
      public long storedLength() throws IOException {
        return translated(bucket, what, out::storedLength);
      }

      @Override
      public void write(int b) throws IOException {
        run(bucket, what, () -> out.write(b));
      }

      @Override
      public void write(byte[] buffer, int offset, int length) throws IOException {
        run(bucket, what, () -> out.write(buffer, offset, length));
      }

      @Override
      public void flush() throws IOException {
        run(bucket, what, out::flush);
      }

      @Override
      public void close() throws IOException {
        run(bucket, what, out::close);
      }
    };
  }
}
