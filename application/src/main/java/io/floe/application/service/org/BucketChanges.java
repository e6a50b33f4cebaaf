package io.floe.application.service.org;

import io.floe.application.model.AuditAction;
import io.floe.application.model.AuditTarget;
import io.floe.application.model.AuditedChange;
import io.floe.application.port.in.org.BucketManagementUseCase.BucketUpdate;
import io.floe.domain.BucketConfig;
import io.floe.domain.CatalogName;
import java.util.ArrayList;
import java.util.List;

/**
 * How changes to bucket configurations are recorded in the audit log: where the data lives and
 * how the server authenticates, never the credentials themselves.
 */
final class BucketChanges {
  private BucketChanges() {}

  static AuditedChange of(AuditAction action, CatalogName nickname) {
    return AuditedChange.of(action, AuditTarget.Kind.BUCKET, nickname.value());
  }

  static AuditedChange created(BucketConfig bucket, boolean makeDefault) {
    return of(AuditAction.BUCKET_CREATE, bucket.nickname())
        .with("location", bucket.uriOf(bucket.prefix()))
        .with("platform", bucket.platform().wireName())
        .with("endpoint", bucket.endpoint())
        .with("auth", bucket.credentials().kind())
        .with("make_default", makeDefault);
  }

  static AuditedChange updated(BucketConfig current, BucketUpdate update) {
    List<String> fields = new ArrayList<>();
    update.bucket().ifPresent(changed -> fields.add("bucket"));
    update.prefix().ifPresent(changed -> fields.add("prefix"));
    update.platform().ifPresent(changed -> fields.add("platform"));
    update.endpoint().ifPresent(changed -> fields.add("endpoint"));
    update.region().ifPresent(changed -> fields.add("region"));
    update.pathStyle().ifPresent(changed -> fields.add("path_style"));
    update.credentials().ifPresent(changed -> fields.add("auth"));
    return of(AuditAction.BUCKET_UPDATE, current.nickname())
        .with("fields", fields)
        .with("auth", update.credentials().map(credentials -> credentials.kind()));
  }
}
