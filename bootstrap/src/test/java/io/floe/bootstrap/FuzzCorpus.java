package io.floe.bootstrap;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * What the route fuzz test sends: malformed path segments, header values, query strings and
 * bodies, and the ways to break a valid JSON body one field at a time. Everything is given as the
 * bytes that go on the wire, because much of it cannot be said in a well-formed request.
 */
final class FuzzCorpus {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  /** Stand-ins that become escapes no Java string can be serialized into by Jackson. */
  private static final String NUL = "@@nul@@";
  private static final String LONE_SURROGATE = "@@surrogate@@";

  private FuzzCorpus() {}

  /** Path segments, already percent-encoded (or deliberately not) as they are sent. */
  static List<byte[]> pathSegments() {
    List<byte[]> segments = new ArrayList<>();
    for (String segment : List.of("a%00b", "%", "%ff%fe", "%2e%2e", "x".repeat(3000), "%C3%B1",
        "%1F", "a%2Fb")) {
      segments.add(ascii(segment));
    }
    segments.add(new byte[] {'a', (byte) 0xFF});
    return segments;
  }

  /** Values of the Authorization header that authenticate nobody. */
  static List<byte[]> badAuthorizations() {
    List<byte[]> values = new ArrayList<>();
    for (String value : List.of("", "Basic Zm9vOmJhcg==", "Bearer ema_" + "0".repeat(64),
        "Bearer " + "x".repeat(6000), "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4In0.")) {
      values.add(ascii(value));
    }
    values.add(new byte[] {'B', 'e', 'a', 'r', 'e', 'r', ' ', 'x', 0x01});
    return values;
  }

  /** Malformed values of other headers a route may read, by header name. */
  static Map<String, List<byte[]>> badHeaders() {
    return Map.of(
        "Idempotency-Key", List.of(ascii("k".repeat(200)), utf8("ключ")),
        "If-None-Match", List.of(ascii("*"), ascii("\"" + "a".repeat(5000) + "\"")),
        "X-Iceberg-Access-Delegation", List.of(ascii("vended-credentials,".repeat(300))),
        "Content-Type", List.of(ascii("application/x-www-form-urlencoded"),
            ascii("application/json; charset=nonsense")));
  }

  /** Query parameters the routes read, and one nobody reads. */
  static final List<String> QUERY_PARAMETERS = List.of("warehouse", "pageToken", "pageSize",
      "parent", "snapshots", "purgeRequested", "search", "filter_metadata", "sort", "direction",
      "include_ghosts", "page", "size", "imsure", "immediate", "retain_data", "principal_id",
      "namespace", "deleted", "ref", "path", "limit", "page_token", "unknown");

  /**
   * Query values, percent-encoded (or deliberately not) as they are sent. The last three are page
   * tokens as Floe encodes them (base64url) of a NUL, of a byte that is no UTF-8 and of a
   * surrogate encoded on its own: text a listing must refuse once decoded.
   */
  static List<String> queryValues() {
    return List.of("%00", "%", "%ff%fe", "x".repeat(250), "99999999999999999999",
        "%7B%22a%22%3A%5B", "AA", "_w", "7aCA");
  }

  /** Bodies that are not what any route expects, whatever it expects. */
  static List<byte[]> bodies() {
    List<byte[]> bodies = new ArrayList<>();
    for (String body : List.of("", "123", "[]", "\"x\"", "null", "{}", "1e999999",
        "{not json", "{\"a\":".repeat(3000) + "1" + "}".repeat(3000),
        "{\"\\u0000\":\"\\u0000\"}", "{\"a\":\"\\ud800\"}")) {
      bodies.add(utf8(body));
    }
    bodies.add(new byte[] {0});
    bodies.add(new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xFF, (byte) 0xFE, '"', '}'});
    return bodies;
  }

  /** Whether the body holds a NUL or a lone surrogate (raw or escaped) or is no UTF-8. */
  static boolean isUnkeepable(byte[] body) {
    try {
      String text = java.nio.charset.StandardCharsets.UTF_8.newDecoder()
          .decode(java.nio.ByteBuffer.wrap(body)).toString();
      return text.indexOf(0) >= 0 || text.contains("\\u0000") || text.contains("\\ud800");
    } catch (java.nio.charset.CharacterCodingException e) {
      return true;
    }
  }

  /** One way to break a valid body: a description and the broken body. */
  record Variant(String description, byte[] body) {}

  /**
   * The valid body broken one field at a time: each field removed, set to null, given a value
   * of every other JSON type, and (for strings) a NUL, a lone surrogate or an overlong value.
   */
  static List<Variant> fieldVariants(String validBody) {
    JsonNode valid = read(validBody);
    List<Variant> variants = new ArrayList<>();
    collect(valid, "", variants);
    return variants;
  }

  /** Whether a variant replaces a value by one of another JSON type (not null, not absent). */
  static boolean isTypeSwap(Variant variant) {
    return variant.description().contains(" as ");
  }

  private static void collect(JsonNode root, String pointer, List<Variant> out) {
    JsonNode node = root.at(pointer);
    if (node.isObject()) {
      List<String> names = new ArrayList<>();
      node.fieldNames().forEachRemaining(names::add);
      for (String name : names) {
        String field = pointer + "/" + name;
        out.add(new Variant(field + " removed",
            write(edit(root, pointer, parent -> ((ObjectNode) parent).remove(name)))));
        replacements(name, node.get(name)).forEach((description, value) -> out.add(new Variant(
            field + description,
            write(edit(root, pointer, parent -> ((ObjectNode) parent).set(name, value))))));
        collect(root, field, out);
      }
    } else if (node.isArray() && !node.isEmpty()) {
      String item = pointer + "/0";
      replacements("", node.get(0)).forEach((description, value) -> out.add(new Variant(
          item + description,
          write(edit(root, pointer, parent -> ((ArrayNode) parent).set(0, value))))));
      collect(root, item, out);
    }
  }

  /** Whether a variant must be refused whatever its type: it asks for what nobody may have. */
  static boolean isForbiddenValue(Variant variant) {
    return variant.description().endsWith(REFUSED);
  }

  private static final String REFUSED = " (refused)";

  /**
   * Bucket endpoints and identities an org's admin may not give the server: the cloud metadata
   * service, a loopback address the test operator does not list, other schemes, credentials in
   * the URL, the server's own identity.
   */
  private static final Map<String, Map<String, String>> FORBIDDEN_VALUES = Map.of(
      "endpoint", Map.of(
          " = the cloud metadata service" + REFUSED, "http://169.254.169.254",
          " = loopback IPv6 on the database's port" + REFUSED, "http://[::1]:5432",
          " = a file URL" + REFUSED, "file:///etc/passwd",
          " = credentials in the URL" + REFUSED, "http://user:secret@127.0.0.1:9"),
      "method", Map.of(" = the server's own identity" + REFUSED, "ambient"));

  /** The values that replace {@code original} of field {@code name}, by description. */
  private static Map<String, JsonNode> replacements(String name, JsonNode original) {
    Map<String, JsonNode> values = new java.util.LinkedHashMap<>();
    if (original.isNull()) {
      return values;  // a null means "clear this": any type may be a valid value
    }
    if (original.isTextual()) {
      FORBIDDEN_VALUES.getOrDefault(name, Map.of()).forEach((description, value) ->
          values.put(description, NODES.textNode(value)));
    }
    values.put(" = null", NODES.nullNode());
    if (original.isTextual()) {
      values.put(" as number", NODES.numberNode(123));
      values.put(" as object", NODES.objectNode().put("x", "y"));
      values.put(" with NUL", NODES.textNode(original.asText() + NUL));
      values.put(" with a lone surrogate", NODES.textNode(original.asText() + LONE_SURROGATE));
    } else if (original.isNumber()) {
      values.put(" as string", NODES.textNode("x"));
      values.put(" = 2^63", NODES.numberNode(new java.math.BigInteger("9223372036854775808")));
      values.put(" = 1e400", NODES.numberNode(new java.math.BigDecimal("1e400")));
    } else if (original.isBoolean()) {
      values.put(" as string", NODES.textNode("true"));
      values.put(" as number", NODES.numberNode(1));
    } else {
      values.put(" as string", NODES.textNode("x"));
      values.put(original.isArray() ? " as object" : " as array",
          original.isArray() ? NODES.objectNode() : NODES.arrayNode());
    }
    return values;
  }

  /** A copy of {@code root} with {@code change} applied to the node at {@code pointer}. */
  private static JsonNode edit(JsonNode root, String pointer, Consumer<JsonNode> change) {
    JsonNode copy = root.deepCopy();
    change.accept(copy.at(pointer));
    return copy;
  }

  private static JsonNode read(String body) {
    try {
      return JSON.readTree(body);
    } catch (java.io.IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static byte[] write(JsonNode body) {
    try {
      String text = JSON.writeValueAsString(body)
          .replace(NUL, "\\u0000").replace(LONE_SURROGATE, "\\ud800");
      return utf8(text);
    } catch (java.io.IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  static byte[] ascii(String text) {
    return text.getBytes(StandardCharsets.US_ASCII);
  }

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }
}
