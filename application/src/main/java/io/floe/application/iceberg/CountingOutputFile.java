package io.floe.application.iceberg;

import java.io.IOException;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;

/** An output file that counts the bytes written to it: a metadata file's size, for the cache. */
final class CountingOutputFile implements OutputFile {
  private final OutputFile file;
  private long bytesWritten;

  CountingOutputFile(OutputFile file) {
    this.file = file;
  }

  long bytesWritten() {
    return bytesWritten;
  }

  @Override
  public PositionOutputStream create() {
    return counting(file.create());
  }

  @Override
  public PositionOutputStream createOrOverwrite() {
    return counting(file.createOrOverwrite());
  }

  @Override
  public String location() {
    return file.location();
  }

  @Override
  public InputFile toInputFile() {
    return file.toInputFile();
  }

  private PositionOutputStream counting(PositionOutputStream stream) {
    return new PositionOutputStream() {
      @Override
      public long getPos() throws IOException {
        return stream.getPos();
      }

      @Override
      public void write(int b) throws IOException {
        stream.write(b);
        bytesWritten++;
      }

      @Override
      public void write(byte[] bytes, int offset, int length) throws IOException {
        stream.write(bytes, offset, length);
        bytesWritten += length;
      }

      @Override
      public void flush() throws IOException {
        stream.flush();
      }

      @Override
      public void close() throws IOException {
        stream.close();
      }
    };
  }
}
