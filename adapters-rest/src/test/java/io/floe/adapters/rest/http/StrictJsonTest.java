package io.floe.adapters.rest.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.adapters.rest.iceberg.RestJson;
import io.floe.adapters.rest.management.ManagementJson;
import io.floe.application.iceberg.MetadataLimits;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.rest.requests.CreateNamespaceRequest;
import org.junit.jupiter.api.Test;

/** A request body is one JSON value: what follows it makes the body malformed, in both APIs. */
class StrictJsonTest {
  @Test
  void aBodyOfOneValueIsRead() {
    assertThat(RestJson.read("{\"namespace\": [\"a\"]}\n", CreateNamespaceRequest.class, MetadataLimits.DEFAULTS)
        .namespace().levels()).containsExactly("a");
    assertThat(ManagementJson.read(" {\"name\": \"a\"} ", JsonNode.class).path("name").asText())
        .isEqualTo("a");
  }

  @Test
  void anythingAfterTheBodysValueIsRefused() {
    assertThatThrownBy(() -> RestJson.read("{\"namespace\": [\"a\"]} }",
        CreateNamespaceRequest.class, MetadataLimits.DEFAULTS)).isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> RestJson.read("{\"namespace\": [\"a\"]} {\"namespace\": [\"b\"]}",
        CreateNamespaceRequest.class, MetadataLimits.DEFAULTS)).isInstanceOf(BadRequestException.class);
    assertThatThrownBy(() -> ManagementJson.read("{\"name\": \"a\"} x", JsonNode.class))
        .isInstanceOf(BadRequestException.class);
  }
}
