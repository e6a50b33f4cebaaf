package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.adapters.icechunk.engine.IcechunkRepository;
import io.floe.adapters.icechunk.engine.WritableSession;
import io.floe.adapters.icechunk.port.BucketObjectStore;
import io.floe.adapters.storage.local.LocalBucketStorage;
import io.floe.domain.StoragePath;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** {@code floe repos ...} against a running server, as a user would type it. */
@FloeServerTest
class ReposCommandTest {
  static TestFloe floe;

  TestFloe.Org org;

  record Run(int exitCode, String out, String err) {}

  @BeforeAll
  static void startServer(TestFloe shared) {
    floe = shared;
  }

  @BeforeEach
  void newOrg() {
    org = floe.newOrg();
  }

  @Test
  void createListShowAndBrowseARepo() throws Exception {
    Run created = floe("repos", "create", "weather", "--description", "Reanalysis");
    assertThat(created.exitCode()).as(created.err()).isZero();
    assertThat(created.out()).contains("name:", "weather", "location:", "file://", "Reanalysis");

    assertThat(floe("repos", "list").out()).contains("NAME", "weather", "default", "Reanalysis");
    JsonNode json = new ObjectMapper().readTree(floe("repos", "get", "weather", "-o", "json")
        .out());
    assertThat(json.get("name").asText()).isEqualTo("weather");

    commitWithFloesIcechunk(json.get("prefix").asText());
    assertThat(floe("repos", "refs", "weather").out())
        .contains("branch  main").contains("tag     v1");
    String log = floe("repos", "log", "weather").out();
    assertThat(log).contains("commit ", "    add root", "metadata: {\"by\":\"cli-test\"}",
        "    Repository initialized");
    assertThat(floe("repos", "log", "weather", "-n", "1").out())
        .doesNotContain("Repository initialized");
    assertThat(floe("repos", "attrs", "weather", "/", "--ref", "v1").out())
        .contains("group / at v1", "\"title\" : \"Weather\"");
  }

  @Test
  void deleteExplainsRestoreAndMissingReposFailWithTheServersReason() {
    assertThat(floe("repos", "create", "temp").exitCode()).isZero();
    Run deleted = floe("repos", "delete", "temp");
    assertThat(deleted.exitCode()).isZero();
    assertThat(deleted.out()).contains("floe repos restore temp");
    Run missing = floe("repos", "get", "temp");
    assertThat(missing.exitCode()).isEqualTo(1);
    assertThat(missing.err()).contains("404", "Repo does not exist: temp");
  }

  private void commitWithFloesIcechunk(String prefix) {
    IcechunkRepository repository = IcechunkRepository.open(BucketObjectStore.of(
        new LocalBucketStorage(floe.bucketDirectory(org))), new StoragePath(prefix));
    WritableSession session = repository.writableSession("main");
    session.createGroup("/", Map.of("title", "Weather"));
    repository.createTag("v1", session.commit("add root", Map.of("by", "cli-test")));
  }

  private Run floe(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--url", "http://127.0.0.1:" + floe.server().port(),
        "--token", org.token(), "--org", org.warehouse()));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine command = FloeCommand.commandLine();
    command.setOut(new PrintWriter(out, true));
    command.setErr(new PrintWriter(err, true));
    int exitCode = command.execute(all.toArray(String[]::new));
    return new Run(exitCode, out.toString(), err.toString());
  }
}
