package io.floe.application.port.out.inmemory;

import io.floe.application.port.out.MetadataFileIoProvider;
import io.floe.domain.BucketConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.exceptions.NotFoundException;
import org.apache.iceberg.inmemory.InMemoryFileIO;
import org.apache.iceberg.inmemory.InMemoryInputFile;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;

/**
 * Metadata files in memory, through Iceberg's own {@link InMemoryFileIO} (its output files and
 * their exists-check), but with files of this instance only: Iceberg's keeps one map for the whole
 * JVM. It remembers what was written, in order, so a test can show that a change wrote nothing.
 */
public final class InMemoryMetadataFileIo implements MetadataFileIoProvider {
  private final Files files = new Files();

  @Override
  public FileIO fileIo(BucketConfig bucket) {
    return files;
  }

  /** Every metadata file written so far, oldest first. */
  public List<String> written() {
    synchronized (files.written) {
      return List.copyOf(files.written);
    }
  }

  public boolean exists(String location) {
    return files.fileExists(location);
  }

  private static final class Files extends InMemoryFileIO {
    private final Map<String, byte[]> contents = new ConcurrentHashMap<>();
    private final List<String> written = new ArrayList<>();

    @Override
    public void addFile(String location, byte[] data) {
      contents.put(location, data.clone());
      synchronized (written) {
        written.add(location);
      }
    }

    @Override
    public boolean fileExists(String location) {
      return contents.containsKey(location);
    }

    @Override
    public InputFile newInputFile(String location) {
      byte[] data = contents.get(location);
      if (data == null) {
        throw new NotFoundException("No in-memory file found for location: %s", location);
      }
      return new InMemoryInputFile(location, data);
    }

    @Override
    public void deleteFile(String location) {
      if (contents.remove(location) == null) {
        throw new NotFoundException("No in-memory file found for location: %s", location);
      }
    }
  }
}
