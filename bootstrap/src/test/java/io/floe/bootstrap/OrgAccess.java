package io.floe.bootstrap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;

/** An org admin's calls to the identity and access API, for tests that need principals. */
final class OrgAccess {
  private final TestFloe floe;
  private final TestFloe.Org org;
  private final ManagementApi admin;

  OrgAccess(TestFloe floe, TestFloe.Org org) {
    this.floe = floe;
    this.org = org;
    this.admin = new ManagementApi(floe.server().port(), org.token());
  }

  ManagementApi admin() {
    return admin;
  }

  /** A user, API client or team; returns its id. */
  String create(String kindPath, String name) {
    ManagementApi.Reply reply = admin.post("/orgs/" + org.warehouse() + "/" + kindPath,
        Map.of("name", name));
    assertThat(reply.status()).as(reply.body().toString()).isEqualTo(201);
    return reply.body().path("id").asText();
  }

  /** A new token of the principal, as the org it works in. */
  TestFloe.Org tokenFor(String principalId) {
    ManagementApi.Reply reply = admin.post("/orgs/" + org.warehouse() + "/tokens",
        Map.of("principal_id", principalId));
    assertThat(reply.status()).as(reply.body().toString()).isEqualTo(201);
    return new TestFloe.Org(org.warehouse(), reply.body().path("token").asText());
  }

  /** A new user with a token of its own. */
  TestFloe.Org newUser(String name) {
    return tokenFor(create("users", name));
  }

  /** Grants on a namespace ({@code table} null) or one table; returns the grant's id. */
  String grant(String principalId, String namespace, String table, String action) {
    Map<String, Object> body = new HashMap<>();
    body.put("principal_id", principalId);
    body.put("namespace", namespace);
    body.put("action", action);
    if (table != null) {
      body.put("table", table);
    }
    ManagementApi.Reply reply = admin.post("/orgs/" + org.warehouse() + "/grants", body);
    assertThat(reply.status()).as(reply.body().toString()).isEqualTo(201);
    return reply.body().path("id").asText();
  }

  /** The id of the principal behind a token, from the org's member list. */
  String idOf(String name) {
    for (var member : admin.get("/orgs/" + org.warehouse() + "/members").body()) {
      if (member.path("name").asText().equals(name)) {
        return member.path("id").asText();
      }
    }
    throw new AssertionError("no member " + name);
  }

  ManagementApi as(TestFloe.Org caller) {
    return new ManagementApi(floe.server().port(), caller.token());
  }
}
