package io.floe.adapters.storage.s3;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.domain.StoragePath;
import java.util.List;

/**
 * The IAM session policy that narrows an assumed role to one table: objects under the table's
 * prefix, and listing only with that prefix. The effective permissions are the intersection
 * with the role's own policy, so the role must allow at least as much.
 */
final class TableScopedPolicy {
  private static final ObjectMapper JSON = new ObjectMapper();

  private static final List<String> READ_ACTIONS = List.of("s3:GetObject", "s3:GetObjectVersion");
  private static final List<String> WRITE_ACTIONS = List.of("s3:PutObject", "s3:DeleteObject",
      "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts");

  private TableScopedPolicy() {}

  static String json(String partition, String bucket, StoragePath location, Access access) {
    if (location.isRoot()) {
      throw new IllegalArgumentException("refusing to scope credentials to a whole bucket");
    }
    String bucketArn = "arn:" + partition + ":s3:::" + bucket;
    ObjectNode policy = JSON.createObjectNode().put("Version", "2012-10-17");
    ArrayNode statements = policy.putArray("Statement");

    ObjectNode objects = statements.addObject().put("Sid", "TableObjects").put("Effect", "Allow");
    ArrayNode actions = objects.putArray("Action");
    READ_ACTIONS.forEach(actions::add);
    if (access == Access.READ_WRITE) {
      WRITE_ACTIONS.forEach(actions::add);
    }
    objects.put("Resource", bucketArn + "/" + location.value() + "/*");

    ObjectNode listing = statements.addObject().put("Sid", "ListTablePrefix").put("Effect", "Allow")
        .put("Action", "s3:ListBucket").put("Resource", bucketArn);
    listing.putObject("Condition").putObject("StringLike").putArray("s3:prefix")
        .add(location.value()).add(location.value() + "/*");

    statements.addObject().put("Sid", "BucketLocation").put("Effect", "Allow")
        .put("Action", "s3:GetBucketLocation").put("Resource", bucketArn);
    return policy.toString();
  }

  /** The ARN partition of a region: China and GovCloud have their own. */
  static String partition(String region) {
    if (region.startsWith("cn-")) {
      return "aws-cn";
    }
    if (region.startsWith("us-gov-")) {
      return "aws-us-gov";
    }
    return "aws";
  }
}
