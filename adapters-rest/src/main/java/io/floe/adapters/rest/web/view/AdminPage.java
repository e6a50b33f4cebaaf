package io.floe.adapters.rest.web.view;

import java.util.List;
import java.util.Optional;

/**
 * The org admin pages: members (users, API clients, teams and the teams' users), API tokens (a
 * new token's secret shown this once), and buckets (never their secrets). One page record with
 * the section shown; the others' lists are empty.
 */
public record AdminPage(
    Chrome chrome,
    String section,
    String base,
    List<MemberRow> members,
    List<TeamRow> teams,
    List<Option> users,
    List<Option> holders,
    List<TokenRow> tokens,
    Optional<String> issuedSecret,
    List<BucketRow> buckets) {

  /** A member of the org. */
  public record MemberRow(String name, String kind, String role, String externalId) {}

  /** A team and its users. */
  public record TeamRow(String id, String name, List<String> members, String addAction) {}

  /** An API token, without its secret. */
  public record TokenRow(String holder, String description, String created, String expires,
      String lastUsed, String revoked, String revokeAction) {
    public boolean active() {
      return revoked.isEmpty();
    }
  }

  /** A bucket configuration; how the server authenticates, never with what. */
  public record BucketRow(String nickname, String platform, String bucket, String prefix,
      String endpoint, String region, String credentials, boolean isDefault) {}
}
