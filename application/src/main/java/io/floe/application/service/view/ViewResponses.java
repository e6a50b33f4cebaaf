package io.floe.application.service.view;

import org.apache.iceberg.rest.responses.ImmutableLoadViewResponse;
import org.apache.iceberg.rest.responses.LoadViewResponse;
import org.apache.iceberg.view.ViewMetadata;

/** The Iceberg REST answer for a view's metadata. */
final class ViewResponses {
  private ViewResponses() {}

  static LoadViewResponse of(ViewMetadata metadata) {
    return ImmutableLoadViewResponse.builder()
        .metadata(metadata)
        .metadataLocation(metadata.metadataFileLocation())
        .build();
  }
}
