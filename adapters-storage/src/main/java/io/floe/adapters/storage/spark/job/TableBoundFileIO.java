package io.floe.adapters.storage.spark.job;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.exceptions.ForbiddenException;
import org.apache.iceberg.io.BulkDeletionFailureException;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.io.PositionOutputStream;
import org.apache.iceberg.io.SeekableInputStream;
import org.apache.iceberg.io.SupportsBulkOperations;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * The FileIO of Floe's Spark maintenance jobs: every file goes through S3FileIO with the
 * credentials the catalog vended for the job's table, and nothing else. It runs inside the Spark
 * job, not the server (the server ships it to the job in a jar of its own), so it depends on
 * Iceberg's classes alone.
 *
 * <p>On an object-store bucket, paths are {@code s3://} URIs and the vended credentials reach the
 * table's prefix only; the job holds no other keys, and without vended credentials (or remote
 * signing) it reaches nothing. On a local bucket (a directory of the server), the catalog vends
 * keys of Floe's own S3 endpoint for the table's prefix together with the bucket's {@code file:}
 * root ({@value #ROOT}): a {@code file:} path beneath that root is read, written and deleted as
 * the object of the same key at the endpoint, whose keys refuse everything outside the table's
 * prefix; any other path (the server's data directory, the system's temporary directory) is
 * refused here before anything is sent. Files keep their {@code file:} locations in the table's
 * metadata, so the table reads as before for every other engine.
 */
public class TableBoundFileIO implements SupportsBulkOperations, SupportsPrefixOperations {
  /** The {@code file:} URI of the local bucket's directory, as the catalog vends it. */
  public static final String ROOT = "floe.local-bucket.root";
  /** The bucket Floe's S3 endpoint serves the local buckets' objects as. */
  public static final String ENDPOINT_BUCKET = "floe.local-bucket.name";
  /** Floe's own address (scheme, host, port): where its S3 endpoint answers. */
  public static final String ENDPOINT = "floe.local-bucket.endpoint";
  /** The largest file written with one PUT: the endpoint takes no multipart uploads. */
  private static final long SINGLE_PUT_BYTES = 5L * 1024 * 1024 * 1024;
  private static final int PART_BYTES = 32 * 1024 * 1024;

  private Map<String, String> properties = Map.of();
  private S3FileIO s3;
  /** The local bucket's directory as a path ending in '/', or null on an object store. */
  private String rootPath;
  private String rootUri;
  private String endpointBucket;
  private boolean credentialed;

  public TableBoundFileIO() {}

  @Override
  public void initialize(Map<String, String> given) {
    this.properties = Map.copyOf(given);
    Map<String, String> s3Properties = new HashMap<>(given);
    String root = given.get(ROOT);
    if (root != null) {
      this.rootUri = root.endsWith("/") ? root : root + "/";
      this.rootPath = localPath(rootUri);
      this.endpointBucket = given.getOrDefault(ENDPOINT_BUCKET, "floe-local-bucket");
      String endpoint = given.get(ENDPOINT);
      if (endpoint == null || endpoint.isBlank()) {
        throw new IllegalArgumentException("The table is on a local bucket, but the job was "
            + "not told Floe's address (" + ENDPOINT + ")");
      }
      s3Properties.put("s3.endpoint", endpoint);
      s3Properties.put("s3.path-style-access", "true");
      s3Properties.putIfAbsent("client.region", "us-east-1");
      // One PUT for every file up to S3's own limit: the endpoint offers no multipart upload.
      s3Properties.put("s3.multipart.size", Integer.toString(PART_BYTES));
      s3Properties.put("s3.multipart.threshold",
          Double.toString((double) SINGLE_PUT_BYTES / PART_BYTES));
    }
    this.credentialed = given.containsKey("s3.access-key-id")
        || "true".equals(given.get("s3.remote-signing-enabled"));
    this.s3 = new S3FileIO();
    s3.initialize(s3Properties);
  }

  @Override
  public Map<String, String> properties() {
    return properties;
  }

  @Override
  public InputFile newInputFile(String path) {
    return new Input(path, s3.newInputFile(target(path)));
  }

  @Override
  public InputFile newInputFile(String path, long length) {
    return new Input(path, s3.newInputFile(target(path), length));
  }

  @Override
  public OutputFile newOutputFile(String path) {
    return new Output(path, s3.newOutputFile(target(path)));
  }

  @Override
  public void deleteFile(String path) {
    s3.deleteFile(target(path));
  }

  /** Every path is checked before any is deleted: one foreign path deletes nothing. */
  @Override
  public void deleteFiles(Iterable<String> paths) throws BulkDeletionFailureException {
    List<String> targets = new ArrayList<>();
    for (String path : paths) {
      targets.add(target(path));
    }
    s3.deleteFiles(targets);
  }

  @Override
  public Iterable<FileInfo> listPrefix(String prefix) {
    Iterable<FileInfo> listed = s3.listPrefix(target(prefix));
    if (rootPath == null) {
      return listed;
    }
    String objects = "s3://" + endpointBucket + "/";
    List<FileInfo> located = new ArrayList<>();
    for (FileInfo info : listed) {
      String location = info.location().startsWith(objects)
          ? rootUri + info.location().substring(objects.length()) : info.location();
      located.add(new FileInfo(location, info.size(), info.createdAtMillis()));
    }
    return located;
  }

  @Override
  public void deletePrefix(String prefix) {
    s3.deletePrefix(target(prefix));
  }

  @Override
  public void close() {
    if (s3 != null) {
      s3.close();
    }
  }

  /**
   * Where {@code path} is reached: an object-store URI as it is, a path beneath the local
   * bucket's root as the endpoint's object of the same key; anything else is refused.
   */
  String target(String path) {
    if (!credentialed) {
      throw refused(path, "the catalog vended no credentials for this table (the job asks for "
          + "them with X-Iceberg-Access-Delegation: vended-credentials, and uses no others)");
    }
    if (rootPath == null) {
      if (path.startsWith("s3://") || path.startsWith("s3a://") || path.startsWith("s3n://")) {
        return path;
      }
      throw refused(path, "only the table's object-store location is reachable");
    }
    String local = path.startsWith("file:") ? localPath(path)
        : path.startsWith("/") ? path : null;
    if (local == null || !local.startsWith(rootPath) || hasDotSegment(local)) {
      throw refused(path, "it lies outside the table's bucket " + rootUri);
    }
    return "s3://" + endpointBucket + "/" + local.substring(rootPath.length());
  }

  /** The absolute path of a {@code file:} URI, whichever of its spellings is used. */
  private static String localPath(String uri) {
    String rest = uri.substring("file:".length());
    if (rest.startsWith("//")) {
      rest = rest.substring(2);
      int slash = rest.indexOf('/');
      String host = slash < 0 ? rest : rest.substring(0, slash);
      if (!host.isEmpty() && !host.equals("localhost")) {
        return "//" + rest; // another host's file: never beneath the root
      }
      rest = slash < 0 ? "/" : rest.substring(slash);
    }
    while (rest.startsWith("//")) {
      rest = rest.substring(1);
    }
    return rest;
  }

  private static boolean hasDotSegment(String path) {
    for (String segment : path.split("/", -1)) {
      if (segment.equals(".") || segment.equals("..")) {
        return true;
      }
    }
    return path.contains("\\");
  }

  private static ForbiddenException refused(String path, String why) {
    return new ForbiddenException("%s", "Floe's maintenance job refused the path " + path + ": "
        + why);
  }

  /** A file read through S3, under the location the table's metadata names it by. */
  private static final class Input implements InputFile {
    private final String location;
    private final InputFile file;

    Input(String location, InputFile file) {
      this.location = location;
      this.file = file;
    }

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
  }

  /** A file written through S3, under the location the table's metadata will name it by. */
  private static final class Output implements OutputFile {
    private final String location;
    private final OutputFile file;

    Output(String location, OutputFile file) {
      this.location = location;
      this.file = file;
    }

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
      return new Input(location, file.toInputFile());
    }
  }
}
