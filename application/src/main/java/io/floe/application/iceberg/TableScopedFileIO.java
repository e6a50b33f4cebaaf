package io.floe.application.iceberg;

import java.util.Map;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;

/**
 * A bucket's FileIO confined to one table: every file opened, created or deleted through it must
 * lie under the table's root ({@link TableBoundary}), or it is refused with
 * {@link ForeignTableFileException} before the bucket's FileIO sees it. The server reads a table's
 * manifests, data and delete files, and deletes its files, only through such a FileIO, so a
 * manifest naming another table's file cannot make the server read or delete that file.
 *
 * <p>It offers no bulk and no prefix operations (the bucket's FileIO offers neither), so nothing
 * can reach a file without passing the check; and it never closes the bucket's FileIO, which is
 * shared by every table of the bucket.
 */
public final class TableScopedFileIO implements FileIO {
  private final FileIO bucketIo;
  private final TableBoundary boundary;

  private TableScopedFileIO(FileIO bucketIo, TableBoundary boundary) {
    this.bucketIo = bucketIo;
    this.boundary = boundary;
  }

  /** {@code bucketIo} (the bucket's FileIO) confined to {@code boundary}. */
  public static TableScopedFileIO confine(FileIO bucketIo, TableBoundary boundary) {
    return new TableScopedFileIO(bucketIo, boundary);
  }

  /** The boundary every file must lie within. */
  public TableBoundary boundary() {
    return boundary;
  }

  @Override
  public InputFile newInputFile(String location) {
    return bucketIo.newInputFile(boundary.require(location));
  }

  @Override
  public InputFile newInputFile(String location, long length) {
    return bucketIo.newInputFile(boundary.require(location), length);
  }

  @Override
  public OutputFile newOutputFile(String location) {
    return bucketIo.newOutputFile(boundary.require(location));
  }

  @Override
  public void deleteFile(String location) {
    bucketIo.deleteFile(boundary.require(location));
  }

  @Override
  public Map<String, String> properties() {
    return bucketIo.properties();
  }

  /** Leaves the bucket's FileIO open: other tables of the bucket use it. */
  @Override
  public void close() {}
}
