package io.floe.application.service.repo.objects;

import io.floe.application.model.StoredObjectContent;
import io.floe.application.model.StoredObjectInfo;
import io.floe.application.model.StoredObjectListing;
import io.floe.application.model.WritePrecondition;
import io.floe.application.port.in.repo.RepoObjectsUseCase.RepoObjectSession;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.application.port.out.StreamingBucketStorage;
import io.floe.domain.DomainException;
import io.floe.domain.StoragePath;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.exceptions.ForbiddenException;

/**
 * One repo's objects, and nothing else: the rule that confines a session, applied here to every
 * key and listing prefix a client sends, after S3 decoding. A key must be a valid storage path
 * (no empty, '.' or '..' segment, no backslash or control character) strictly beneath the repo's
 * prefix; a listing prefix must lie at or beneath it; a write needs read-write credentials.
 */
final class ConfinedRepoObjects implements RepoObjectSession {
  /** Keys read from storage per round while a listing folds keys into common prefixes. */
  private static final int LIST_BATCH = 1000;
  /** Sorts after every character a key can hold: skips the rest of a common prefix. */
  private static final char AFTER_EVERYTHING = '\uffff';

  private final StreamingBucketStorage objects;
  private final StoragePath prefix;
  private final Access access;
  private final String secret;

  ConfinedRepoObjects(StreamingBucketStorage objects, StoragePath prefix, Access access,
      String secret) {
    this.objects = objects;
    this.prefix = prefix;
    this.access = access;
    this.secret = secret;
  }

  @Override
  public String secretAccessKey() {
    return secret;
  }

  @Override
  public Optional<StoredObjectInfo> head(String key) {
    return objects.stat(keyOf(key));
  }

  @Override
  public Optional<StoredObjectContent> get(String key, long offset, long length) {
    return objects.read(keyOf(key), offset, length);
  }

  @Override
  public StoredObjectInfo put(String key, InputStream data, long length,
      WritePrecondition precondition) {
    StoragePath path = keyOf(key);
    requireWritable();
    return objects.write(path, data, length, precondition);
  }

  @Override
  public void delete(List<String> keys) {
    List<StoragePath> paths = keys.stream().map(this::keyOf).toList();
    requireWritable();
    paths.forEach(objects::delete);
  }

  @Override
  public StoredObjectListing list(String listPrefix, Optional<String> delimiter,
      Optional<String> startAfter, int maxKeys) {
    String wanted = listPrefix == null ? "" : listPrefix;
    StoragePath directory = listedDirectory(wanted);
    Optional<String> fold = delimiter.filter(d -> !d.isEmpty());
    List<StoredObjectInfo> found = new ArrayList<>();
    List<String> folded = new ArrayList<>();
    // A continuation after a common prefix continues after everything it folded.
    Optional<String> after = startAfter.map(marker -> fold.isPresent()
        && marker.endsWith(fold.get()) ? marker + AFTER_EVERYTHING : marker);
    String last = null;
    while (true) {
      List<StoredObjectInfo> batch = objects.list(directory, after, LIST_BATCH);
      boolean skippedAhead = false;
      for (StoredObjectInfo object : batch) {
        String key = object.key().value();
        after = Optional.of(key);
        if (!key.startsWith(wanted)) {
          if (key.compareTo(wanted) > 0) {
            // Keys with the prefix sort together: past them, nothing more matches.
            return new StoredObjectListing(found, folded, Optional.empty());
          }
          continue;
        }
        if (found.size() + folded.size() >= maxKeys) {
          // One more entry exists: the page is full and continues after its last entry.
          return new StoredObjectListing(found, folded, Optional.ofNullable(last));
        }
        int at = fold.map(d -> key.indexOf(d, wanted.length())).orElse(-1);
        if (at >= 0) {
          String common = key.substring(0, at + fold.get().length());
          folded.add(common);
          last = common;
          after = Optional.of(common + AFTER_EVERYTHING);
          skippedAhead = true;
          break;
        }
        found.add(object);
        last = key;
      }
      if (!skippedAhead && batch.size() < LIST_BATCH) {
        return new StoredObjectListing(found, folded, Optional.empty());
      }
    }
  }

  /**
   * The directory a listing of {@code wanted} reads: its part up to the last '/', which must lie
   * at or beneath the repo's prefix.
   */
  private StoragePath listedDirectory(String wanted) {
    String repo = prefix.value();
    if (!(wanted.equals(repo) || wanted.startsWith(repo + "/"))) {
      throw new ForbiddenException("These credentials list only beneath the repo's prefix '%s'",
          repo);
    }
    String directory = wanted.length() <= repo.length() ? repo
        : wanted.substring(0, Math.max(repo.length(), wanted.lastIndexOf('/')));
    return parse(directory);
  }

  /** The storage path of {@code key}, which must lie strictly beneath the repo's prefix. */
  private StoragePath keyOf(String key) {
    StoragePath path = parse(key == null ? "" : key);
    if (path.equals(prefix) || !path.isWithin(prefix)) {
      throw new ForbiddenException("These credentials reach only the objects beneath the repo's "
          + "prefix '%s'", prefix);
    }
    return path;
  }

  private static StoragePath parse(String key) {
    try {
      return new StoragePath(key);
    } catch (DomainException e) {
      throw new BadRequestException("Invalid object key: %s", e.getMessage());
    }
  }

  private void requireWritable() {
    if (access != Access.READ_WRITE) {
      throw new ForbiddenException("These credentials are read-only");
    }
  }
}
