package io.floe.adapters.persistence.embedded;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.JarURLConnection;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.tukaani.xz.XZInputStream;

/**
 * The programs of one PostgreSQL release ({@code initdb}, {@code postgres}, {@code pg_ctl} and
 * their libraries), carried in the jar as one of zonky's {@code .txz} bundles and unpacked once
 * into a per-user cache directory named after the bundle.
 *
 * <p>Two releases are carried: the {@link #CURRENT} one every cluster runs on, and the
 * {@link #PREVIOUS} one whose clusters older Floe versions made, which only the upgrade runs.
 */
final class PostgresBinaries {
  /** zonky's bundles of the current major, at the root of the class path. */
  static final PostgresBinaries CURRENT = new PostgresBinaries("");
  /** The previous major's bundle, unpacked by the build under a directory of its own. */
  static final PostgresBinaries PREVIOUS = new PostgresBinaries("floe/postgres-previous/");

  private static final Pattern VERSION = Pattern.compile("\\(PostgreSQL\\) (\\d+)\\.");

  private final String resourceDirectory;
  private Path home;
  private Integer majorVersion;

  private PostgresBinaries(String resourceDirectory) {
    this.resourceDirectory = resourceDirectory;
  }

  /** Whether the jar carries this release for the platform Floe runs on. */
  boolean isAvailable() {
    return bundle().isPresent();
  }

  /** The major version, as the {@code postgres} program reports it. */
  synchronized int majorVersion() {
    if (majorVersion == null) {
      String output = Programs.run(command("postgres", "--version"), null);
      Matcher matcher = VERSION.matcher(output);
      if (!matcher.find()) {
        throw new IllegalStateException("cannot read the PostgreSQL version from: " + output);
      }
      majorVersion = Integer.parseInt(matcher.group(1));
    }
    return majorVersion;
  }

  /**
   * The command line that runs {@code program} with {@code arguments}. PostgreSQL refuses to run
   * as root; as root it runs in a user namespace of its own, where it is not root (as zonky does).
   */
  List<String> command(String program, String... arguments) {
    List<String> command = new ArrayList<>(RootGuard.prefix());
    command.add(home().resolve("bin").resolve(program).toString());
    command.addAll(List.of(arguments));
    return command;
  }

  private synchronized Path home() {
    if (home == null) {
      String resource = bundle().orElseThrow(() -> new IllegalStateException(
          "this Floe jar carries no PostgreSQL binaries for " + platform()
              + "; run it on Linux (x86_64, arm64) or macOS, or use an external database "
              + "(--database-url)"));
      home = unpack(resource);
    }
    return home;
  }

  private Optional<String> bundle() {
    for (String name : bundleNames()) {
      String resource = resourceDirectory + name;
      if (PostgresBinaries.class.getClassLoader().getResource(resource) != null) {
        return Optional.of(resource);
      }
    }
    return Optional.empty();
  }

  /**
   * zonky's names for this platform's bundle. Its macOS bundles hold universal binaries, so the
   * arm64 one runs on Intel Macs too and the jar carries only that one.
   */
  private static List<String> bundleNames() {
    String os = os();
    String arch = arch();
    List<String> names = new ArrayList<>();
    names.add("postgres-" + os + "-" + arch + ".txz");
    if (os.equals("darwin")) {
      names.add("postgres-darwin-arm_64.txz");
    }
    return names;
  }

  private static String platform() {
    return os() + "-" + arch();
  }

  private static String os() {
    String name = System.getProperty("os.name").toLowerCase(Locale.ROOT);
    if (name.startsWith("mac") || name.startsWith("darwin")) {
      return "darwin";
    }
    return name.startsWith("windows") ? "windows" : name;
  }

  private static String arch() {
    String arch = System.getProperty("os.arch").toLowerCase(Locale.ROOT);
    return switch (arch) {
      case "amd64", "x86_64" -> "x86_64";
      case "aarch64", "arm64" -> "arm_64";
      default -> arch;
    };
  }

  /**
   * Unpacks the bundle into {@code <cache>/<identity>} unless it is there already. The bundle is
   * unpacked into a directory of its own and renamed into place, so a half-unpacked directory is
   * never used, and two processes unpacking at once both end up with the same, whole, directory.
   */
  private static Path unpack(String resource) {
    try {
      Path cache = cacheDirectory();
      Files.createDirectories(cache);
      Path target = cache.resolve(identityOf(resource));
      if (Files.isDirectory(target.resolve("bin"))) {
        return target;
      }
      Path partial = cache.resolve(target.getFileName() + "." + UUID.randomUUID() + ".partial");
      try (InputStream in = open(resource);
          TarArchiveInputStream tar = new TarArchiveInputStream(new XZInputStream(in))) {
        TarArchiveEntry entry;
        while ((entry = tar.getNextEntry()) != null) {
          extract(tar, entry, partial);
        }
      }
      try {
        Files.move(partial, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
        Disk.deleteRecursively(partial); // another process unpacked the same bundle first
      }
      return target;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot unpack the PostgreSQL binaries " + resource, e);
    }
  }

  private static void extract(TarArchiveInputStream tar, TarArchiveEntry entry, Path root)
      throws IOException {
    Path path = root.resolve(entry.getName()).normalize();
    if (!path.startsWith(root)) {
      throw new IOException("archive entry outside its directory: " + entry.getName());
    }
    if (entry.isDirectory()) {
      Files.createDirectories(path);
      return;
    }
    Files.createDirectories(path.getParent());
    if (entry.isSymbolicLink()) {
      Files.createSymbolicLink(path, Path.of(entry.getLinkName()));
    } else if (entry.isLink()) {
      Files.createLink(path, root.resolve(entry.getLinkName()).normalize());
    } else {
      Files.copy(tar, path);
      Files.setPosixFilePermissions(path, permissions(entry.getMode()));
    }
  }

  private static Set<PosixFilePermission> permissions(int mode) {
    boolean executable = (mode & 0100) != 0;
    return executable
        ? Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.GROUP_READ,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.OTHERS_EXECUTE)
        : Set.of(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.GROUP_READ, PosixFilePermission.OTHERS_READ);
  }

  /**
   * {@code $XDG_CACHE_HOME/floe/postgres}, else {@code ~/.cache/floe/postgres}: a user's cache
   * survives reboots and is not swept by temporary-file cleaners while a server runs from it.
   */
  private static Path cacheDirectory() {
    String xdg = System.getenv("XDG_CACHE_HOME");
    Path base = xdg != null && !xdg.isBlank() ? Path.of(xdg)
        : Path.of(System.getProperty("user.home"), ".cache");
    return base.resolve("floe").resolve("postgres");
  }

  /**
   * What tells bundles apart: the size and CRC-32 the jar records for the entry, known without
   * reading it (hashing 15 MB would cost every start a second); else a digest of the content.
   */
  private static String identityOf(String resource) throws IOException {
    URLConnection connection = PostgresBinaries.class.getClassLoader().getResource(resource)
        .openConnection();
    if (connection instanceof JarURLConnection jar) {
      JarEntry entry = jar.getJarEntry();
      if (entry.getCrc() >= 0 && entry.getSize() >= 0) {
        return "crc-" + Long.toHexString(entry.getCrc()) + "-" + entry.getSize();
      }
    }
    try (DigestInputStream in = new DigestInputStream(open(resource),
        MessageDigest.getInstance("SHA-256"))) {
      in.transferTo(OutputStream.nullOutputStream());
      return "sha-" + HexFormat.of().formatHex(in.getMessageDigest().digest()).substring(0, 24);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static InputStream open(String resource) throws IOException {
    InputStream in = PostgresBinaries.class.getClassLoader().getResourceAsStream(resource);
    if (in == null) {
      throw new IOException("missing resource " + resource);
    }
    return new BufferedInputStream(in, 1 << 16);
  }

  /** Whether PostgreSQL must be wrapped so that it does not run as root. */
  private static final class RootGuard {
    private static final List<String> PREFIX = detect();

    static List<String> prefix() {
      return PREFIX;
    }

    private static List<String> detect() {
      if (new com.sun.security.auth.module.UnixSystem().getUid() != 0) {
        return List.of();
      }
      try {
        Process probe = new ProcessBuilder("unshare", "-U", "id", "-u").redirectErrorStream(true)
            .start();
        String uid = new String(probe.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
            .strip();
        if (probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0 && !uid.equals("0")) {
          return List.of("unshare", "-U");
        }
      } catch (IOException e) {
        // no unshare: reported below
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      throw new IllegalStateException("PostgreSQL does not run as root, and 'unshare -U' (which "
          + "would run it in a user namespace) is not available: run Floe as a regular user");
    }
  }
}
