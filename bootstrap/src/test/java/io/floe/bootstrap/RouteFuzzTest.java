package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.DynamicTest.dynamicTest;

import com.fasterxml.jackson.databind.JsonNode;
import io.floe.adapters.rest.FloeHttpServer.Route;
import io.floe.adapters.rest.management.ManagementRequest;
import io.floe.adapters.rest.web.WebPaths;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every route the router holds, sent malformed path segments, headers, query strings and bodies
 * (generic ones, and each route's real body broken field by field) by a caller who may do
 * everything: an operator who administers the org. The routes come from the server itself, so a
 * new route is fuzzed without touching this test. For every request: no 5xx, errors in the error
 * model of their API, no internals in a message, and a refused request changes no row of the
 * database and no file of the bucket.
 */
class RouteFuzzTest {
  private static final Set<String> BODY_METHODS = Set.of("POST", "PUT", "PATCH");
  private static final Set<String> READS = Set.of("GET", "HEAD");
  private static final Pattern INTERNALS = Pattern.compile("org\\.jooq|org\\.postgresql"
      + "|PSQLException|SQL \\[|ERROR: |\\tat |java\\.lang\\.|NullPointerException"
      + "|DateTimeException|Exception: ");
  private static final AtomicInteger NAMES = new AtomicInteger();
  /** The S3 endpoint of local buckets; it speaks S3. */
  private static final String LOCAL_BUCKET_ENDPOINT = "/floe-local-bucket";
  private static final Pattern S3_ERROR = Pattern.compile("^<\\?xml[^>]*>\\s*<Error><Code>[A-Za-z]+"
      + "</Code><Message>[^<]+</Message>(<[A-Za-z]+>[^<]*</[A-Za-z]+>)*</Error>\\s*$");

  @TempDir static Path directory;
  private static TestFloe floe;
  private static RawHttp http;
  private static StoredState.Camera camera;
  private static String operatorToken;
  private static String operatorId;
  private static Fixture fixture;
  private static StoredState fixtureState;
  private static final List<String> REPORT = new ArrayList<>();
  private static long requests;
  private static long requestNanos;
  private static long snapshotNanos;
  private static int fixtures;

  @BeforeAll
  static void start() throws IOException {
    // The server's own cleanup pass (it purges what was deleted) must not change rows between a
    // request and the snapshot that judges it: it does not run during the test. A server of its
    // own: every snapshot reads every row of the database, which on a shared server would be all
    // the rows of every other test.
    // Webhook deliveries (which write their progress) do not run either: the fixture's
    // subscription points at a closed port.
    floe = TestFloe.start(directory,
        settings -> settings.firstCleanupAfter(Duration.ofDays(1))
            .webhooks(TestFloe.LOOPBACK_WEBHOOKS.withPollInterval(Duration.ofDays(1))));
    http = new RawHttp(floe.server().port());
    camera = new StoredState.Camera(floe.database());
    operatorToken = Files.readString(floe.settings().adminTokenFile()).strip();
    operatorId = floe.database().dsl().fetchOne("select m.principal_id::text"
        + " from memberships m join orgs o on o.id = m.org_id where o.name = ?",
        floe.settings().org().value()).get(0, String.class);
  }

  @AfterAll
  static void stop() throws IOException {
    floe.close();
    REPORT.add(String.format("%d requests: %d s answering, %d s taking snapshots; %d fixtures",
        requests, requestNanos / 1_000_000_000, snapshotNanos / 1_000_000_000, fixtures));
    // Every problem of every route, where the assertion messages cut them short.
    Files.createDirectories(Path.of("target"));
    Files.write(Path.of("target", "route-fuzz-report.txt"), REPORT);
  }

  @TestFactory
  Stream<DynamicTest> everyRouteRefusesMalformedInputCleanly() {
    List<Route> routes = floe.routes();
    assertThat(routes).hasSizeGreaterThan(60);
    // Reads first: they change nothing, so they share one fixture.
    return routes.stream().sorted(Comparator.comparing(route -> !READS.contains(route.method())))
        .map(route -> dynamicTest(route.method() + " " + route.path(),
        () -> new RouteProbe(route, fixture()).run()));
  }

  /** Requests the router never sees: the HTTP layer refuses them, in the error model too. */
  @Test
  void malformedRequestTargetsAreRefusedInTheErrorModel() {
    List<String> failures = new ArrayList<>();
    Fixture current = fixture();
    for (byte[] target : List.of(FuzzCorpus.ascii("/iceberg/v1/%00"),
        FuzzCorpus.ascii("/orgs/%"), FuzzCorpus.ascii("/orgs/%zz/buckets"),
        FuzzCorpus.ascii("/../../etc/passwd"), FuzzCorpus.ascii("/iceberg/v1/config?warehouse=%"),
        FuzzCorpus.ascii("/orgs/" + current.org() + "/../../health"),
        FuzzCorpus.ascii("/" + "a".repeat(10_000)), FuzzCorpus.ascii("/nope"),
        FuzzCorpus.ascii("/orgs/a b"), new byte[] {'/', 'o', 'r', 'g', 's', '/', (byte) 0xFF},
        new byte[] {'/', 'o', 'r', 'g', 's', '/', 0x01})) {
      RawHttp.Request request = RawHttp.Request.of("GET", "/").target(target)
          .header("Authorization", "Bearer " + operatorToken);
      RawHttp.Reply reply = http.send(request);
      String problem = reply.status() >= 500 ? "a server error"
          : reply.status() < 400 ? "accepted" : errorModelProblem(request, reply);
      if (problem != null) {
        failures.add(request.describe() + " -> " + reply.status() + " " + excerpt(reply) + ": "
            + problem);
      }
    }
    assertThat(failures).isEmpty();
  }

  /** One route's fuzzing: every corpus in turn, failures collected for one report. */
  private final class RouteProbe {
    private final Route route;
    private final Fixture fixture;
    private final List<String> failures = new ArrayList<>();
    private final String exampleBody;
    private StoredState current;

    RouteProbe(Route route, Fixture fixture) {
      this.route = route;
      this.fixture = fixture;
      String example = RouteExamples.body(route.method(), route.path());
      this.exampleBody = example == null ? null : fixture.fill(example);
      this.current = camera.take(fixture.storage());
    }

    void run() {
      pathSegments();
      authorization();
      otherHeaders();
      queryStrings();
      bodies();
      fields();
      impossibleBodies();
      otherMethods();
      StoredState end = camera.take(fixture.storage());
      if (!end.equals(current)) {
        failures.add("the route's reads changed " + end.differenceFrom(current));
      }
      assertThat(failures).as("%d problems with %s %s:%n%s", failures.size(), route.method(),
          route.path(), String.join("\n", failures.subList(0, Math.min(40, failures.size()))))
          .isEmpty();
    }

    private void pathSegments() {
      List<String> segments = List.of(route.path().split("/", -1));
      for (int i = 0; i < segments.size(); i++) {
        if (!segments.get(i).startsWith("{")) {
          continue;
        }
        for (byte[] junk : FuzzCorpus.pathSegments()) {
          send("path " + segments.get(i), base().target(target(i, junk, "")), true);
        }
      }
    }

    private void authorization() {
      RawHttp.Reply anonymous = send("no token", base().withoutHeader("Authorization"), false);
      for (byte[] value : FuzzCorpus.badAuthorizations()) {
        RawHttp.Request request = base().header("Authorization", value);
        RawHttp.Reply reply = send("authorization", request, false);
        if (reply.status() != anonymous.status() && reply.status() != 400) {
          failures.add("authorization: " + request.describe() + " -> " + reply.status()
              + ", but without a token " + anonymous.status());
        }
      }
    }

    private void otherHeaders() {
      FuzzCorpus.badHeaders().forEach((name, values) -> values.forEach(value ->
          send("header " + name, base().header(name, value), false)));
    }

    private void queryStrings() {
      for (String value : FuzzCorpus.queryValues()) {
        String query = FuzzCorpus.QUERY_PARAMETERS.stream().map(name -> name + "=" + value)
            .collect(Collectors.joining("&"));
        boolean invalidText = value.contains("%00") || value.matches(".*%(?![0-9A-Fa-f]{2}).*")
            || value.contains("%ff") || value.contains("%ED%A0");
        send("query", base().target(target(-1, null, "?" + query)), invalidText);
      }
    }

    private void bodies() {
      RawHttp.Request withoutBody = base().body(null, RawHttp.Framing.EXACT);
      boolean needsBody = send("no body", withoutBody, false).status() >= 400;
      for (byte[] body : FuzzCorpus.bodies()) {
        // A route that needs no body ignores one of the wrong shape; text that cannot be kept
        // (or is no UTF-8) is refused on every route, so only that is worth sending to it.
        boolean unkeepable = FuzzCorpus.isUnkeepable(body);
        boolean anObject = body.length > 0 && body[0] == '{' && body[body.length - 1] == '}';
        if (needsBody || unkeepable) {
          send("body", base().body(body, RawHttp.Framing.EXACT),
              unkeepable || needsBody && !anObject);
        }
      }
      byte[] whole = exampleBody == null ? FuzzCorpus.ascii("{}") : FuzzCorpus.utf8(exampleBody);
      send("truncated body", base().body(whole, RawHttp.Framing.SHORT), true);
      send("truncated chunked body", base().body(whole, RawHttp.Framing.CHUNKED_CUT), true);
    }

    private void fields() {
      if (exampleBody == null) {
        return;
      }
      for (FuzzCorpus.Variant variant : FuzzCorpus.fieldVariants(exampleBody)) {
        // Iceberg's parser (and the reference server) reads a namespace level given as a number
        // as its text: ["123"] and [123] name the same namespace.
        boolean lenient = variant.description().matches(".*namespace/\\d+ as number");
        boolean invalid = FuzzCorpus.isTypeSwap(variant) && !lenient
            || FuzzCorpus.isForbiddenValue(variant)
            || variant.description().endsWith("NUL")
            || variant.description().endsWith("lone surrogate");
        send("field " + variant.description(), base().body(variant.body(),
            RawHttp.Framing.EXACT), invalid);
      }
    }

    private void impossibleBodies() {
      for (String body : RouteExamples.impossible(route.method(), route.path())) {
        send("impossible", base().body(fixture.fill(body)), true);
      }
    }

    private void otherMethods() {
      TreeSet<String> registered = floe.routes().stream()
          .filter(other -> other.path().equals(route.path())).map(Route::method)
          .collect(Collectors.toCollection(TreeSet::new));
      if (!registered.first().equals(route.method())) {
        return;
      }
      for (String method : List.of("PUT", "PATCH", "DELETE", "OPTIONS", "TRACE")) {
        if (!registered.contains(method)) {
          send("method " + method, new RawHttp.Request(method, target(-1, null, ""),
              Map.of("Authorization", FuzzCorpus.ascii("Bearer " + operatorToken)), null,
              RawHttp.Framing.EXACT), true);
        }
      }
    }

    /** The route's valid request: its fixture path, the operator's token and its example body. */
    private RawHttp.Request base() {
      RawHttp.Request request = new RawHttp.Request(route.method(), target(-1, null,
          fixture.fill(RouteExamples.query(route.method(), route.path()))),
          Map.of("Authorization", FuzzCorpus.ascii("Bearer " + operatorToken),
              "Content-Type", FuzzCorpus.ascii("application/json")), null,
          RawHttp.Framing.EXACT);
      return exampleBody != null && BODY_METHODS.contains(route.method())
          ? request.body(exampleBody) : request;
    }

    /** The route's path filled from the fixture, with segment {@code junkAt} replaced. */
    private byte[] target(int junkAt, byte[] junk, String query) {
      String[] segments = route.path().split("/", -1);
      List<byte[]> parts = new ArrayList<>();
      for (int i = 0; i < segments.length; i++) {
        String segment = segments[i];
        if (i == junkAt) {
          parts.add(junk);
        } else if (segment.startsWith("{")) {
          parts.add(FuzzCorpus.ascii(fixture.pathParameter(
              segment.substring(1, segment.length() - 1), segments[i - 1])));
        } else {
          parts.add(FuzzCorpus.ascii(segment));
        }
        if (i < segments.length - 1) {
          parts.add(FuzzCorpus.ascii("/"));
        }
      }
      parts.add(FuzzCorpus.ascii(query));
      return FuzzCorpus.concat(parts.toArray(byte[][]::new));
    }

    private RawHttp.Reply send(String corpus, RawHttp.Request request, boolean mustRefuse) {
      long started = System.nanoTime();
      RawHttp.Reply reply = http.send(request);
      long answered = System.nanoTime();
      // A read leaves no trace to compare request by request; run() compares once at the end.
      boolean read = READS.contains(request.method());
      StoredState after = read ? current : camera.take(fixture.storage());
      requests++;
      requestNanos += answered - started;
      snapshotNanos += System.nanoTime() - answered;
      String problem = null;
      if (reply.status() >= 500) {
        problem = "a server error";
      } else if (reply.status() >= 400 && !request.method().equals("HEAD")) {
        problem = errorModelProblem(request, reply);
      }
      if (problem == null && INTERNALS.matcher(reply.text()).find()) {
        problem = "the answer shows internals";
      }
      if (problem == null && !read && reply.status() >= 400 && !after.equals(current)) {
        problem = "refused, yet it changed " + after.differenceFrom(current);
      }
      if (problem == null && mustRefuse && reply.status() < 400
          && !isSentToSignIn(request, reply)) {
        problem = "accepted";
      }
      if (problem != null) {
        failures.add(corpus + ": " + request.describe() + " -> " + reply.status() + " "
            + excerpt(reply) + ": " + problem);
        REPORT.add(route.method() + " " + route.path() + " | " + failures.get(failures.size() - 1));
      }
      current = after;
      return reply;
    }
  }

  /** Null when the error body is in the error model of the API the path belongs to. */
  private static String errorModelProblem(RawHttp.Request request, RawHttp.Reply reply) {
    String path = new String(request.target(), StandardCharsets.ISO_8859_1).split("\\?", 2)[0];
    if ((path.equals(LOCAL_BUCKET_ENDPOINT) || path.startsWith(LOCAL_BUCKET_ENDPOINT + "/"))
        && S3_ERROR.matcher(reply.text()).matches()) {
      // Its route answers S3 clients in S3's error model; what the HTTP layer refuses before
      // the route is in the Iceberg error model, as on every path outside the management API.
      return null;
    }
    if (WebPaths.isWebPath(path)) {
      // The web app answers people: an error is a page (or, for a missing asset, a line of
      // text). That it is no server error and shows no internals is checked for every route.
      return null;
    }
    JsonNode body = reply.json();
    if (body == null) {
      return "the error is not JSON";
    }
    if (ManagementRequest.isManagementPath(path)) {
      return body.path("detail").isTextual() ? null : "no detail in the management error";
    }
    JsonNode error = body.path("error");
    boolean valid = error.path("message").isTextual() && error.path("type").isTextual()
        && !error.path("type").asText().isEmpty() && error.path("code").asInt() == reply.status();
    return valid ? null : "not in the Iceberg error model";
  }

  /**
   * The web app signs in with a cookie, never a bearer token: whatever a request without one
   * asks of it, the answer is the way to the sign-in page, which refuses as much as a 401 does.
   */
  private static boolean isSentToSignIn(RawHttp.Request request, RawHttp.Reply reply) {
    String path = new String(request.target(), StandardCharsets.ISO_8859_1).split("\\?", 2)[0];
    return WebPaths.isWebPath(path) && reply.status() >= 300 && reply.status() < 400
        && reply.headers().entrySet().stream().anyMatch(header ->
            header.getKey().equalsIgnoreCase("Location")
                && header.getValue().startsWith(WebPaths.SIGN_IN));
  }

  private static String excerpt(RawHttp.Reply reply) {
    String text = reply.text().replace('\n', ' ');
    return text.length() > 300 ? text.substring(0, 300) + "..." : text;
  }

  /**
   * An org with everything the routes name: a namespace with a partitioned table and a view, a
   * user in a team with a token and a grant, a repo; the operator administers it. Reused by the
   * next route as long as nothing changed anywhere since it was built.
   */
  private static Fixture fixture() {
    if (fixture != null && camera.take(fixture.storage()).equals(fixtureState)) {
      return fixture;
    }
    fixtures++;
    TestFloe.Org org = floe.newOrg();
    floe.database().dsl().execute("insert into memberships (org_id, principal_id, role)"
        + " select id, ?::uuid, 'ADMIN' from orgs where name = ?", operatorId, org.warehouse());
    Map<String, String> values = new LinkedHashMap<>();
    values.put("now", Long.toString(Instant.now().toEpochMilli()));
    IcebergHttp catalog = new IcebergHttp(floe, org);
    assertThat(catalog.post("/namespaces", "{\"namespace\":[\"sales\"]}").status())
        .isEqualTo(200);
    IcebergHttp.Reply orders = catalog.post("/namespaces/sales/tables",
        RouteExamples.createTable("orders"));
    IcebergHttp.Reply recent = catalog.post("/namespaces/sales/views",
        RouteExamples.createView("recent").replace("${now}", values.get("now")));
    assertThat(List.of(orders.status(), recent.status())).containsOnly(200);
    values.put("ordersUuid", orders.body().path("metadata").path("table-uuid").asText());
    values.put("ordersMetadata", orders.body().path("metadata-location").asText());
    values.put("viewMetadata", recent.body().path("metadata-location").asText());
    OrgAccess access = new OrgAccess(floe, org);
    String base = "/orgs/" + org.warehouse();
    String ada = access.create("users", "ada");
    String team = access.create("teams", "crew");
    assertThat(access.admin().post(base + "/teams/" + team + "/members",
        Map.of("principal_id", ada)).status()).isEqualTo(204);
    assertThat(access.admin().post(base + "/repos", Map.of("name", "weather")).status())
        .isEqualTo(201);
    values.put("org", org.warehouse());
    values.put("ada", ada);
    values.put("team", team);
    values.put("token", access.admin().post(base + "/tokens", Map.of("principal_id", ada))
        .body().path("id").asText());
    values.put("grant", access.grant(ada, "sales", null, "read"));
    values.put("subscription", access.admin().post(base + "/subscriptions",
        Map.of("url", "http://127.0.0.1:9/hook", "namespace", "sales")).body()
        .at("/subscription/id").asText());
    fixture = new Fixture(org.warehouse(), floe.bucketDirectory(org),
        values);
    fixtureState = camera.take(fixture.storage());
    return fixture;
  }

  /** The fixture's org, the directory of its bucket, and the values routes and bodies name. */
  private record Fixture(String org, Path storage, Map<String, String> values) {
    String fill(String text) {
      String filled = text.replace("${n}", Integer.toString(NAMES.incrementAndGet()));
      for (Map.Entry<String, String> value : values.entrySet()) {
        filled = filled.replace("${" + value.getKey() + "}", value.getValue());
      }
      return filled;
    }

    String pathParameter(String name, String previousSegment) {
      return switch (name) {
        case "prefix", "org" -> org;
        case "namespace", "name" -> "sales";
        case "table" -> "orders";
        case "view" -> "recent";
        case "bucket" -> "default";
        case "repo" -> "weather";
        case "member" -> values.get("ada");
        case "id" -> switch (previousSegment) {
          case "teams" -> values.get("team");
          case "tokens" -> values.get("token");
          case "grants" -> values.get("grant");
          case "subscriptions" -> values.get("subscription");
          default -> values.get("ada");
        };
        default -> "unknown";
      };
    }
  }
}
