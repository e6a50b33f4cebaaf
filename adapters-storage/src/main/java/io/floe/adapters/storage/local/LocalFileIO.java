package io.floe.adapters.storage.local;

import io.floe.application.port.out.RefusedLocationException;
import io.floe.domain.CanonicalLocation;
import io.floe.domain.DomainException;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import org.apache.iceberg.Files;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;

/**
 * Iceberg {@link FileIO} for {@code file:} locations in one local bucket, so the server needs no
 * Hadoop. A location is read as its {@link CanonicalLocation} (never percent-decoded: one that is
 * not canonical is refused), and its real path, symbolic links followed, must lie beneath the
 * bucket's directory. Files are created 0640 in directories created 0750, without following a
 * link at the file itself, and are forced to disk when closed. Files keep the location they were
 * opened with, so metadata read back names itself exactly as it was written.
 */
public final class LocalFileIO implements FileIO {
  private final LocalRoot root;

  public LocalFileIO(Path bucketDirectory) {
    this.root = new LocalRoot(bucketDirectory);
  }

  @Override
  public InputFile newInputFile(String location) {
    Path path = fileOf(location);
    InputFile file = Files.localInput(path.toFile());
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
    Path path = fileOf(location);
    return new OutputFile() {
      @Override
      public PositionOutputStream create() {
        return open(location, path, StandardOpenOption.CREATE_NEW);
      }

      @Override
      public PositionOutputStream createOrOverwrite() {
        return open(location, path, StandardOpenOption.CREATE,
            StandardOpenOption.TRUNCATE_EXISTING);
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
    try {
      java.nio.file.Files.deleteIfExists(fileOf(location));
    } catch (IOException e) {
      throw new UncheckedIOException("could not delete " + location, e);
    }
  }

  /** The file a location names, refused unless it really lies in the bucket's directory. */
  private Path fileOf(String location) {
    CanonicalLocation parsed;
    try {
      parsed = CanonicalLocation.parse(location);
    } catch (DomainException e) {
      throw new RefusedLocationException(e.getMessage());
    }
    if (!parsed.scheme().equals(CanonicalLocation.FILE_SCHEME) || parsed.path().isRoot()) {
      throw new RefusedLocationException("not a local file location: " + parsed);
    }
    Path file = Path.of("/" + parsed.path().value());
    if (!file.startsWith(root.path()) || file.equals(root.path())) {
      throw new RefusedLocationException("'" + parsed + "' is not in the local bucket "
          + root.path());
    }
    root.requireInside(file);
    return file;
  }

  private PositionOutputStream open(String location, Path file, OpenOption... mode) {
    root.createDirectories(file.getParent());
    Set<OpenOption> options = new java.util.HashSet<>(Set.of(mode));
    options.add(StandardOpenOption.WRITE);
    options.add(LinkOption.NOFOLLOW_LINKS);
    try {
      FileChannel channel = FileChannel.open(file, options, LocalPaths.fileAttributes());
      LocalPaths.restrict(file, LocalPaths.FILE_MODE);
      return new ChannelOutputStream(channel);
    } catch (FileAlreadyExistsException e) {
      throw new AlreadyExistsException("File already exists: %s", location);
    } catch (IOException e) {
      throw new UncheckedIOException("could not create " + location, e);
    }
  }

  /** Counts what it writes, and forces it to disk on close: a metadata file is durable. */
  private static final class ChannelOutputStream extends PositionOutputStream {
    private final FileChannel channel;
    private final OutputStream out;
    private long position;

    ChannelOutputStream(FileChannel channel) {
      this.channel = channel;
      this.out = new BufferedOutputStream(Channels.newOutputStream(channel));
    }

    @Override
    public long getPos() {
      return position;
    }

    @Override
    public void write(int b) throws IOException {
      out.write(b);
      position++;
    }

    @Override
    public void write(byte[] bytes, int offset, int length) throws IOException {
      out.write(bytes, offset, length);
      position += length;
    }

    @Override
    public void flush() throws IOException {
      out.flush();
    }

    @Override
    public void close() throws IOException {
      if (!channel.isOpen()) {
        return;
      }
      try (channel) {
        out.flush();
        channel.force(true);
      }
    }
  }
}
