package io.floe.application.iceberg;

import java.io.IOException;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * An input file that counts the bytes read from it, so that a parsed metadata file's size is
 * known without asking the object store for it (an extra request on S3 and GCS).
 */
final class CountingInputFile implements InputFile {
  private final InputFile file;
  private long bytesRead;

  CountingInputFile(InputFile file) {
    this.file = file;
  }

  long bytesRead() {
    return bytesRead;
  }

  @Override
  public long getLength() {
    return file.getLength();
  }

  @Override
  public SeekableInputStream newStream() {
    SeekableInputStream stream = file.newStream();
    return new SeekableInputStream() {
      @Override
      public long getPos() throws IOException {
        return stream.getPos();
      }

      @Override
      public void seek(long newPos) throws IOException {
        stream.seek(newPos);
      }

      @Override
      public int read() throws IOException {
        int b = stream.read();
        if (b >= 0) {
          bytesRead++;
        }
        return b;
      }

      @Override
      public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = stream.read(buffer, offset, length);
        if (n > 0) {
          bytesRead += n;
        }
        return n;
      }

      @Override
      public void close() throws IOException {
        stream.close();
      }
    };
  }

  @Override
  public String location() {
    return file.location();
  }

  @Override
  public boolean exists() {
    return file.exists();
  }
}
