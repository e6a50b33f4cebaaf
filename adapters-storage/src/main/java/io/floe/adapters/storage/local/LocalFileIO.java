package io.floe.adapters.storage.local;

import java.io.File;
import java.net.URI;
import java.nio.file.Path;
import org.apache.iceberg.Files;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * Iceberg {@link FileIO} for {@code file:} locations on the server's disk, built on iceberg-core's
 * own local files, so the server needs no Hadoop. Files keep the location they were opened with,
 * so metadata read back names itself exactly as it was written.
 */
public final class LocalFileIO implements FileIO {

  @Override
  public InputFile newInputFile(String location) {
    InputFile file = Files.localInput(fileOf(location));
    return new InputFile() {
      @Override
      public long getLength() {
        return file.getLength();
      }

      @Override
      public SeekableInputStream newStream() {
        return file.newStream();
      }

      @Override
      public String location() {
        return location;
      }

      @Override
      public boolean exists() {
        return file.exists();
      }
    };
  }

  @Override
  public OutputFile newOutputFile(String location) {
    OutputFile file = Files.localOutput(fileOf(location));
    return new OutputFile() {
      @Override
      public PositionOutputStream create() {
        return file.create();
      }

      @Override
      public PositionOutputStream createOrOverwrite() {
        return file.createOrOverwrite();
      }

      @Override
      public String location() {
        return location;
      }

      @Override
      public InputFile toInputFile() {
        return newInputFile(location);
      }
    };
  }

  @Override
  public void deleteFile(String location) {
    fileOf(location).delete();
  }

  static File fileOf(String location) {
    if (location.startsWith("file:")) {
      return Path.of(URI.create(location)).toFile();
    }
    if (location.startsWith("/")) {
      return new File(location);
    }
    throw new IllegalArgumentException("not a local file location: " + location);
  }
}
