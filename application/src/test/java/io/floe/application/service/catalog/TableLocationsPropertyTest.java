package io.floe.application.service.catalog;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.domain.BucketConfig;
import io.floe.domain.BucketCredentials;
import io.floe.domain.CanonicalLocation;
import io.floe.domain.CatalogName;
import io.floe.domain.PrefixGenerator;
import io.floe.domain.StoragePath;
import io.floe.domain.StoragePlatform;
import io.floe.domain.TableName;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * Hostile locations, built from a real table root the way an attacker would (percent-encodings
 * single and double, mixed-case {@code %2E}, overlong UTF-8, full-width and other look-alike
 * dots, {@code //}, {@code ;}, {@code ?}, {@code #}, backslashes, trailing dots, {@code ..} in
 * every position, other spellings of the scheme and host), are never accepted outside the
 * table: every accepted one has a canonical form inside the table, and so does every reading a
 * lax storage layer could make of it (decoding once or twice, NFKC, backslashes as separators,
 * cutting at {@code ?}, {@code #} or {@code ;}, then resolving dot segments).
 */
class TableLocationsPropertyTest {
  private static final Random RANDOM = new Random(7);
  private static final BucketConfig LOCAL = bucket(StoragePlatform.LOCAL, "/srv/floe/buckets/org-1");
  private static final BucketConfig S3 = bucket(StoragePlatform.S3, "lake");

  private static final List<String> DOTS = List.of("..", ".", "...", "%2e%2e", "%2E%2e", "%2e%2E",
      "%2E%2E", "%2e", ".%2e", "%2e.", "%252e%252e", "%25252e%25252e", "%c0%ae%c0%ae",
      "%e0%80%ae%e0%80%ae", "%c0%2e", "%uff0e%uff0e", "\uFF0E\uFF0E", "\uFF0E", "\u2025",
      "\u2024\u2024", "\uFE52\uFE52", "..\u200b", "\u200b..", "..\u0000", ". .", "..%00",
      "..%20", "..;", "..?", "..#", "..\\", "\\..");
  private static final List<String> NAMES = List.of("data", "metadata", "x", "x.", "x..",
      "snap-1.avro", "etc", "tmp", "org-2", "x;v=1", "x?y", "x#y", ";", "?", "#", "x y", "%20",
      "%41", "\u00e9", "e\u0301", "\uFF41", "orders-0f3e", "orders-0f3eX");
  private static final List<String> SEPARATORS = List.of("/", "/", "/", "//", "\\", "%2f", "%2F",
      "%5c", "%252f", "\uFF0F", "/./");

  private static BucketConfig bucket(StoragePlatform platform, String name) {
    return new BucketConfig(UUID.randomUUID(), UUID.randomUUID(), new CatalogName("default"),
        platform, name, StoragePath.root(), Optional.empty(), Optional.empty(), false,
        BucketCredentials.none(), true);
  }

  /** A table root placed as the server places one: {@code <namespace prefix>/<name>-<hex>}. */
  private static String tableRoot(BucketConfig bucket) {
    StoragePath namespace = new PrefixGenerator(RANDOM::nextInt)
        .namespacePrefix(bucket, new CatalogName("sales"));
    return bucket.uriOf(namespace.resolve(new TableName("orders").pathSegment() + "-0f3e"));
  }

  record Case(BucketConfig bucket, String root, String location) {}

  @Provide
  Arbitrary<Case> hostileLocations() {
    Arbitrary<BucketConfig> buckets = Arbitraries.of(LOCAL, S3);
    Arbitrary<String> pieces = Arbitraries.frequencyOf(
        net.jqwik.api.Tuple.of(5, Arbitraries.of(DOTS)),
        net.jqwik.api.Tuple.of(4, Arbitraries.of(NAMES)),
        net.jqwik.api.Tuple.of(1, Arbitraries.strings().withCharRange('!', '~').ofMaxLength(4)));
    Arbitrary<List<String>> steps = Combinators.combine(Arbitraries.of(SEPARATORS), pieces)
        .as((separator, piece) -> separator + piece).list().ofMaxSize(7);
    Arbitrary<Integer> spelling = Arbitraries.integers().between(0, 9);
    Arbitrary<String> trailing = Arbitraries.of("", "", "/", "//", ".", "/.", "%2e", "?", "#");
    return Combinators.combine(buckets, spelling, steps, trailing)
        .as((bucket, how, path, tail) -> {
          String root = tableRoot(bucket);
          return new Case(bucket, root, respell(root, how) + String.join("", path) + tail);
        });
  }

  /** The root as written, or one of the spellings an attacker would try instead. */
  private static String respell(String root, int how) {
    String afterScheme = root.substring(root.indexOf("://") + 3);
    String scheme = root.substring(0, root.indexOf("://"));
    return switch (how) {
      case 1 -> scheme.toUpperCase(Locale.ROOT) + "://" + afterScheme;
      case 2 -> scheme + ":/" + afterScheme;
      case 3 -> scheme + "://" + "user@" + afterScheme;
      case 4 -> scheme + "://" + (scheme.equals("file") ? "localhost" : afterScheme.replaceFirst(
          "/", ":9000/"));
      case 5 -> root.substring(0, root.lastIndexOf('/'));
      case 6 -> root + "X";
      case 7 -> root.replace("/org-1/", "/org-2/");
      default -> root;
    };
  }

  @Property(tries = 5_000)
  void noHostileLocationIsAcceptedOutsideTheTable(@ForAll("hostileLocations") Case c) {
    for (String property : TableLocations.PATH_PROPERTIES) {
      String verdict;
      try {
        TableLocations.requireWithin(c.bucket(), c.root(), property, c.location());
        verdict = "accepted";
      } catch (BadRequestException e) {
        assertThat(e.getMessage()).contains(property);
        verdict = "refused as not canonical";
      } catch (ForbiddenException e) {
        assertThat(e.getMessage()).contains(property);
        verdict = "refused as outside";
      }
      Statistics.label("verdict").collect(verdict);
      if (verdict.equals("accepted")) {
        CanonicalLocation canonical = CanonicalLocation.parse(c.location());
        assertThat(canonical.isWithin(CanonicalLocation.parse(c.root())))
            .as("canonical form of %s", c.location()).isTrue();
        for (List<String> reading : laxReadings(c.location())) {
          assertThat(isWithin(reading, segments(CanonicalLocation.parse(c.root()))))
              .as("%s read as %s", c.location(), reading).isTrue();
        }
      }
    }
    Statistics.label("verdict").coverage(coverage -> {
      coverage.check("accepted").percentage(p -> p > 0.5);
      coverage.check("refused as not canonical").percentage(p -> p > 30);
      coverage.check("refused as outside").count(n -> n > 0);
    });
  }

  @Property(tries = 2_000)
  void metadataAndViewLocationsFollowTheSameRule(@ForAll("hostileLocations") Case c) {
    boolean accepted;
    try {
      TableLocations.pathIn(c.bucket(), "location", c.location());
      accepted = true;
    } catch (BadRequestException e) {
      accepted = false;
    }
    assertThat(accepted).isEqualTo(c.bucket().pathOf(c.location()).isPresent());
    if (accepted) {
      assertThat(CanonicalLocation.parse(c.location()).toString())
          .as("nothing but the trailing '/' and the file spelling differ")
          .isEqualTo(canonicalSpelling(c.location()));
    }
  }

  private static String canonicalSpelling(String location) {
    String trimmed = location.endsWith("/") ? location.substring(0, location.length() - 1)
        : location;
    if (trimmed.startsWith("file:/") && !trimmed.startsWith("file://")) {
      return "file://" + trimmed.substring("file:".length());
    }
    return trimmed;
  }

  /**
   * What lenient storage layers could make of a location: the path after scheme and host, read
   * with any combination of percent-decoding (once or twice), NFKC, '\' as a separator and
   * cutting at '?', '#' or ';'; each then resolved like a POSIX path. Host, user information and
   * port are dropped, so a reading names the path a layer would open on the bucket it was given.
   */
  private static List<List<String>> laxReadings(String location) {
    String path = location;
    int schemeEnd = path.indexOf("://");
    if (schemeEnd >= 0) {
      path = path.substring(schemeEnd + 3);
      int slash = path.indexOf('/');
      String host = slash < 0 ? path : path.substring(0, slash);
      path = slash < 0 ? "" : path.substring(slash);
      if (!host.isEmpty()) {
        path = "/" + host.replaceAll("^.*@", "").replaceAll(":\\d*$", "") + path;
      }
    } else if (path.startsWith("file:")) {
      path = path.substring("file:".length());
    }
    List<List<String>> readings = new ArrayList<>();
    for (int decodes = 0; decodes <= 2; decodes++) {
      for (boolean nfkc : new boolean[] {false, true}) {
        for (boolean backslash : new boolean[] {false, true}) {
          for (boolean cut : new boolean[] {false, true}) {
            String read = path;
            for (int i = 0; i < decodes; i++) {
              read = percentDecode(read);
            }
            if (nfkc) {
              read = Normalizer.normalize(read, Normalizer.Form.NFKC);
            }
            if (backslash) {
              read = read.replace('\\', '/');
            }
            if (cut) {
              read = read.split("[?#;]", 2)[0];
            }
            readings.add(resolve(read));
          }
        }
      }
    }
    return readings;
  }

  private static List<String> segments(CanonicalLocation location) {
    List<String> out = new ArrayList<>();
    if (!location.authority().isEmpty()) {
      out.add(location.authority());
    }
    if (!location.path().isRoot()) {
      out.addAll(List.of(location.path().value().split("/")));
    }
    return out;
  }

  private static boolean isWithin(List<String> path, List<String> root) {
    return path.size() >= root.size() && path.subList(0, root.size()).equals(root);
  }

  /** POSIX resolution: empty and '.' segments vanish, '..' climbs (never above the root). */
  private static List<String> resolve(String path) {
    Deque<String> out = new ArrayDeque<>();
    for (String segment : path.split("/")) {
      if (segment.isEmpty() || segment.equals(".")) {
        continue;
      }
      if (segment.equals("..")) {
        out.pollLast();
      } else {
        out.addLast(segment);
      }
    }
    return new ArrayList<>(out);
  }

  /**
   * Decodes %XX escapes as lenient decoders do: malformed escapes stay as they are, and UTF-8
   * is read leniently, overlong forms included ({@code %c0%ae} is '.').
   */
  private static String percentDecode(String text) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '%' && isHex(text, i + 1) && isHex(text, i + 2)) {
        bytes.write(Integer.parseInt(text.substring(i + 1, i + 3), 16));
        i += 2;
        continue;
      }
      out.append(laxUtf8(bytes.toByteArray()));
      bytes.reset();
      out.append(c);
    }
    return out.append(laxUtf8(bytes.toByteArray())).toString();
  }

  private static boolean isHex(String text, int index) {
    return index < text.length() && Character.digit(text.charAt(index), 16) >= 0;
  }

  /** UTF-8 that also accepts overlong sequences; anything else malformed becomes U+FFFD. */
  private static String laxUtf8(byte[] raw) {
    StringBuilder out = new StringBuilder();
    int i = 0;
    while (i < raw.length) {
      int b = raw[i] & 0xff;
      int length = b < 0x80 ? 1 : b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : b >= 0xc0 ? 2 : 0;
      if (length == 0 || i + length > raw.length) {
        out.append('\uFFFD');
        i++;
        continue;
      }
      int cp = length == 1 ? b : b & (0xff >> (length + 1));
      boolean valid = true;
      for (int k = 1; k < length; k++) {
        int next = raw[i + k] & 0xff;
        valid &= (next & 0xc0) == 0x80;
        cp = (cp << 6) | (next & 0x3f);
      }
      if (valid && Character.isValidCodePoint(cp)) {
        out.appendCodePoint(cp);
        i += length;
      } else {
        out.append('\uFFFD');
        i++;
      }
    }
    return out.toString();
  }
}
