package io.floe.domain;

import java.util.function.IntUnaryOperator;

/**
 * Chooses storage prefixes: {@code <bucket prefix>/<8 random lowercase alphanumerics>_<name>}.
 * The random part keeps a re-created name off the files of its predecessor; the name keeps the
 * bucket readable for people browsing it.
 */
public final class PrefixGenerator {
  private static final String ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
  public static final int RANDOM_LENGTH = 8;

  private final IntUnaryOperator randomBelow;

  /** @param randomBelow returns a uniformly random int in {@code [0, bound)} for a bound */
  public PrefixGenerator(IntUnaryOperator randomBelow) {
    this.randomBelow = randomBelow;
  }

  public StoragePath namespacePrefix(BucketConfig bucket, CatalogName name) {
    return bucket.prefix().resolve(randomPart() + "_" + name.value());
  }

  public StoragePath repoPrefix(BucketConfig bucket, CatalogName name) {
    return namespacePrefix(bucket, name);
  }

  /** A table that binds a bucket of its own gets a prefix named after namespace and table. */
  public StoragePath tablePrefix(BucketConfig bucket, CatalogName namespace, TableName table) {
    return bucket.prefix().resolve(
        randomPart() + "_" + namespace.value() + "." + table.pathSegment());
  }

  private String randomPart() {
    StringBuilder out = new StringBuilder(RANDOM_LENGTH);
    for (int i = 0; i < RANDOM_LENGTH; i++) {
      out.append(ALPHABET.charAt(randomBelow.applyAsInt(ALPHABET.length())));
    }
    return out.toString();
  }
}
