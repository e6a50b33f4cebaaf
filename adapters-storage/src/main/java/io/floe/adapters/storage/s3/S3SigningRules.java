package io.floe.adapters.storage.s3;

import static io.floe.adapters.storage.s3.S3RequestTarget.refused;

import io.floe.application.port.out.CredentialVendor.Access;
import io.floe.domain.DomainException;
import io.floe.domain.StoragePath;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.apache.iceberg.rest.requests.RemoteSignRequest;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * Which S3 requests the catalog signs for a table: object reads (and, for writers, writes and
 * multipart uploads) beneath the table's location, listings of prefixes beneath it, and batch
 * deletes of keys beneath it. Everything else is refused, including requests that would change
 * permissions (ACLs), lock objects, or copy data in from elsewhere.
 */
final class S3SigningRules {
  private static final Set<String> READ_METHODS = Set.of("GET", "HEAD");
  private static final Set<String> WRITE_METHODS = Set.of("PUT", "POST", "DELETE");

  /** Sub-resources an Iceberg FileIO uses on objects; others (acl, tagging, ...) are refused. */
  private static final Set<String> OBJECT_PARAMETERS =
      Set.of("x-id", "uploads", "uploadId", "partNumber", "versionId");
  private static final Set<String> LIST_PARAMETERS = Set.of("x-id", "list-type", "prefix",
      "continuation-token", "max-keys", "delimiter", "start-after", "encoding-type",
      "fetch-owner");
  private static final Set<String> PRIVATE_ACLS = Set.of("private", "bucket-owner-full-control");
  private static final String S3_NAMESPACE = "http://s3.amazonaws.com/doc/2006-03-01/";
  /** What a batch delete may say about an object besides its key: which version, and when. */
  private static final Set<String> OBJECT_FIELDS =
      Set.of("VersionId", "ETag", "LastModifiedTime", "Size");

  private S3SigningRules() {}

  static void check(S3RequestTarget target, StoragePath location, Access access,
      RemoteSignRequest request) {
    String method = request.method().toUpperCase(Locale.ROOT);
    boolean writes = WRITE_METHODS.contains(method);
    if (!writes && !READ_METHODS.contains(method)) {
      throw refused("method " + method + " is not signed");
    }
    if (writes && access != Access.READ_WRITE) {
      throw refused("this caller may only read the table");
    }
    checkHeaders(request.headers());
    if (target.key().isPresent()) {
      onlyParameters(target.query(), OBJECT_PARAMETERS);
      requireBeneath(target.key().get(), location);
    } else if (method.equals("HEAD") && target.query().isEmpty()) {
      return; // HeadBucket: says only that the bucket exists, which the caller knows
    } else if (method.equals("GET")) {
      onlyParameters(target.query(), LIST_PARAMETERS);
      requireBeneath(target.query().getOrDefault("prefix", ""), location);
    } else if (method.equals("POST") && target.query().containsKey("delete")) {
      onlyParameters(target.query(), Set.of("delete", "x-id"));
      for (String key : keysToDelete(request.body())) {
        requireBeneath(key, location);
      }
    } else {
      throw refused(method + " on the bucket itself is not signed");
    }
  }

  private static void checkHeaders(Map<String, List<String>> headers) {
    for (Map.Entry<String, List<String>> header : headers.entrySet()) {
      String name = header.getKey().toLowerCase(Locale.ROOT);
      if (name.startsWith("x-amz-copy-source")) {
        throw refused("copies are not signed: their source could lie outside the table");
      }
      if (name.startsWith("x-amz-grant-")) {
        throw refused("requests that grant permissions are not signed");
      }
      if (name.startsWith("x-amz-object-lock-")) {
        throw refused("object locks are not signed: they would stop the table's files from "
            + "ever being deleted");
      }
      if (name.equals("x-amz-acl") && !header.getValue().stream()
          .allMatch(value -> PRIVATE_ACLS.contains(value.strip()))) {
        throw refused("only private ACLs are signed");
      }
    }
  }

  private static void onlyParameters(Map<String, String> query, Set<String> allowed) {
    for (String name : query.keySet()) {
      if (!allowed.contains(name)) {
        throw refused("query parameter '" + name + "' is not signed");
      }
    }
  }

  /**
   * The key, or listing prefix, must lie strictly beneath the location, segment-wise, and have
   * no empty, "." or ".." segment that a store or proxy might resolve elsewhere.
   */
  private static void requireBeneath(String key, StoragePath location) {
    if (!key.startsWith(location.value() + "/")) {
      throw refused("'" + key + "' is outside the table's location");
    }
    String withoutTrailingSlash = key.endsWith("/") ? key.substring(0, key.length() - 1) : key;
    try {
      new StoragePath(withoutTrailingSlash);
    } catch (DomainException e) {
      throw refused("'" + key + "' is not a plain object key");
    }
  }

  /**
   * The keys of a DeleteObjects body, read without resolving any external entity. Only the shape
   * S3 documents is accepted ({@code Delete} holding {@code Object}s and {@code Quiet}; each
   * object one {@code Key} of plain text, besides version and condition fields): a body that
   * another parser might read as naming other keys is refused rather than interpreted.
   */
  private static List<String> keysToDelete(String body) {
    if (body == null || body.isBlank()) {
      throw refused("a batch delete without the keys it deletes");
    }
    Element root;
    try {
      DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
      factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
      factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
      factory.setNamespaceAware(true);
      factory.setExpandEntityReferences(false);
      root = factory.newDocumentBuilder()
          .parse(new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)))
          .getDocumentElement();
    } catch (Exception e) {
      throw refused("an unreadable batch delete body");
    }
    requireElement(root, "Delete");
    List<String> keys = new ArrayList<>();
    for (Element child : elements(root)) {
      if (child.getLocalName().equals("Object")) {
        keys.add(keyOf(child));
      } else if (!child.getLocalName().equals("Quiet")) {
        throw refused("a batch delete with a '" + child.getLocalName() + "' element");
      }
    }
    if (keys.isEmpty()) {
      throw refused("a batch delete without keys");
    }
    return keys;
  }

  private static String keyOf(Element object) {
    String key = null;
    for (Element field : elements(object)) {
      if (field.getLocalName().equals("Key")) {
        if (key != null || !onlyText(field)) {
          throw refused("a batch delete object with more than one key, or a key that is not text");
        }
        key = field.getTextContent();
      } else if (!OBJECT_FIELDS.contains(field.getLocalName())) {
        throw refused("a batch delete object with a '" + field.getLocalName() + "' element");
      }
    }
    if (key == null) {
      throw refused("a batch delete object without a key");
    }
    return key;
  }

  /** Text and CDATA only: no element, comment or instruction a parser could read otherwise. */
  private static boolean onlyText(Element element) {
    NodeList nodes = element.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      if (!(nodes.item(i) instanceof org.w3c.dom.Text)) {
        return false;
      }
    }
    return true;
  }

  private static void requireElement(Element element, String name) {
    String namespace = element.getNamespaceURI();
    if (!name.equals(element.getLocalName())
        || (namespace != null && !namespace.equals(S3_NAMESPACE))) {
      throw refused("a batch delete body that is not a <Delete> document");
    }
  }

  /** The element children, each in S3's namespace or none; text between them is ignored. */
  private static List<Element> elements(Element parent) {
    List<Element> children = new ArrayList<>();
    NodeList nodes = parent.getChildNodes();
    for (int i = 0; i < nodes.getLength(); i++) {
      Node node = nodes.item(i);
      if (node instanceof Element element) {
        String namespace = element.getNamespaceURI();
        if (namespace != null && !namespace.equals(S3_NAMESPACE)) {
          throw refused("a batch delete body with elements of another namespace");
        }
        children.add(element);
      } else if (node.getNodeType() == Node.ENTITY_REFERENCE_NODE
          || node.getNodeType() == Node.PROCESSING_INSTRUCTION_NODE) {
        throw refused("a batch delete body with entities or processing instructions");
      }
    }
    return children;
  }
}
