package io.floe.application.service.check;

import io.floe.application.iceberg.MetadataFiles;
import io.floe.application.model.CheckFinding;
import io.floe.domain.BucketConfig;
import java.util.Optional;
import org.apache.iceberg.exceptions.NotFoundException;

/**
 * Reads one current metadata file afresh, past the metadata cache, and says what is wrong with
 * it, if anything: the one judgement of a pointer that the catalog's and the repos' checkers share.
 */
final class MetadataFileProbe {
  private final MetadataFiles files;

  MetadataFileProbe(MetadataFiles files) {
    this.files = files;
  }

  Optional<CheckFinding> probe(String subject, BucketConfig bucket, String location,
      boolean view) {
    try {
      if (!files.io(bucket).newInputFile(location).exists()) {
        return Optional.of(missing(subject, location));
      }
      if (view) {
        files.verifyView(bucket, location);
      } else {
        files.verifyTable(bucket, location);
      }
      return Optional.empty();
    } catch (NotFoundException e) {
      return Optional.of(missing(subject, location));
    } catch (RuntimeException e) {
      return Optional.of(new CheckFinding(CheckFinding.Kind.METADATA_UNREADABLE, subject,
          "the current metadata file " + location + " cannot be read: " + e.getMessage()));
    }
  }

  private static CheckFinding missing(String subject, String location) {
    return new CheckFinding(CheckFinding.Kind.METADATA_MISSING, subject,
        "the current metadata file " + location + " is not in the bucket");
  }
}
