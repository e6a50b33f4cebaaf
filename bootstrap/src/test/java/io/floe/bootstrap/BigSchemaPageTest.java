package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import io.floe.application.iceberg.MetadataLimits;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The table page of a schema that is huge for its size: 850 lists around a 12-deep tree of maps,
 * 470 KB of JSON, made a 65 MB page before (every row spelled out the whole type below it). On a
 * server whose operator raised the limits so that such a table exists, the page stays small: rows
 * name one level of their type, deeper fields are one row with a link, and rows come in pages.
 */
class BigSchemaPageTest {
  private static final Pattern FORM_TOKEN = Pattern.compile("name=\"_csrf\" value=\"([^\"]+)\"");
  private static final Pattern OPEN = Pattern.compile(
      "<a class=\"more\" href=\"([^\"]+)\">(\\d+) nested fields</a>");
  private static final HttpClient HTTP = HttpClient.newBuilder()
      .followRedirects(HttpClient.Redirect.NEVER).build();

  @TempDir static Path directory;
  private static TestFloe floe;
  private static TestFloe.Org org;
  private static final Map<String, String> cookies = new HashMap<>();

  @BeforeAll
  static void start() {
    floe = TestFloe.start(directory, settings -> settings.metadataLimits(
        new MetadataLimits(1_000, 100_000, 512L * 1024 * 1024)));
    org = floe.newOrg();
    IcebergHttp catalog = new IcebergHttp(floe, org);
    assertThat(catalog.post("/namespaces", "{\"namespace\":[\"big\"]}").status()).isEqualTo(200);
    String deep = HostileSchemas.createTable("deep", HostileSchemas.listsAroundMaps(850, 12));
    assertThat(deep.length()).isGreaterThan(460_000);
    assertThat(catalog.post("/namespaces/big/tables", deep).status()).isEqualTo(200);
    String columns = IntStream.rangeClosed(1, 450).mapToObj(i -> "{\"id\":" + i
        + ",\"name\":\"c" + i + "\",\"required\":false,\"type\":\"string\"}")
        .collect(Collectors.joining(","));
    assertThat(catalog.post("/namespaces/big/tables", "{\"name\":\"wide\",\"schema\":{"
        + "\"type\":\"struct\",\"fields\":[" + columns + "]}}").status()).isEqualTo(200);
    HttpResponse<String> form = get("/ui/sign-in");
    Matcher token = FORM_TOKEN.matcher(form.body());
    assertThat(token.find()).isTrue();
    assertThat(post("/ui/sign-in", Map.of("_csrf", token.group(1), "token", org.token(),
        "next", "/")).statusCode()).isLessThan(400);
  }

  @AfterAll
  static void stop() {
    floe.close();
  }

  @Test
  void deepFieldsAreCollapsedBehindALinkAndTheirPageIsBoundedToo() {
    String page = table("deep", "");
    assertThat(page.length()).isLessThan(200_000);
    assertThat(page).contains("list&lt;list&gt;");
    Matcher open = OPEN.matcher(page);
    assertThat(open.find()).as("a collapsed field").isTrue();
    assertThat(Integer.parseInt(open.group(2))).isGreaterThan(800);

    String opened = get(open.group(1).replace("&amp;", "&")).body();
    assertThat(opened.length()).isLessThan(200_000);
    assertThat(opened).contains("Fields of <code>a.element.element.element</code>")
        .contains("Whole schema");
  }

  @Test
  void manyFieldsArePaged() {
    String first = table("wide", "");
    assertThat(first).contains(">c200<").doesNotContain(">c201<").contains("Rows 1 to 200 of 450")
        .contains("rel=\"next\"");
    String third = table("wide", "&fields=3");
    assertThat(third).contains(">c450<").doesNotContain(">c400<")
        .contains("Rows 401 to 450 of 450");
  }

  private static String table(String name, String query) {
    HttpResponse<String> page = get("/ui/orgs/" + org.warehouse() + "/namespaces/big/tables/"
        + name + "?tab=schema" + query);
    assertThat(page.statusCode()).isEqualTo(200);
    return page.body();
  }

  private static HttpResponse<String> get(String path) {
    return send(request(path).GET().build());
  }

  private static HttpResponse<String> post(String path, Map<String, String> form) {
    String body = form.entrySet().stream().map(field -> URLEncoder.encode(field.getKey(),
        StandardCharsets.UTF_8) + "=" + URLEncoder.encode(field.getValue(),
        StandardCharsets.UTF_8)).collect(Collectors.joining("&"));
    return send(request(path).header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build());
  }

  private static HttpRequest.Builder request(String path) {
    HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
        + floe.server().port() + path));
    if (!cookies.isEmpty()) {
      builder.header("Cookie", cookies.entrySet().stream()
          .map(cookie -> cookie.getKey() + "=" + cookie.getValue())
          .collect(Collectors.joining("; ")));
    }
    return builder;
  }

  private static HttpResponse<String> send(HttpRequest request) {
    try {
      HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
      response.headers().allValues("Set-Cookie").forEach(header -> {
        String pair = header.split(";", 2)[0];
        cookies.put(pair.substring(0, pair.indexOf('=')), pair.substring(pair.indexOf('=') + 1));
      });
      return response;
    } catch (IOException | InterruptedException e) {
      throw new AssertionError(e);
    }
  }
}
