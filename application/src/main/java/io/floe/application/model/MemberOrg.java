package io.floe.application.model;

import io.floe.domain.Org;
import io.floe.domain.Role;
import java.time.Instant;

/** An org as one of its members sees it: with that member's role. */
public record MemberOrg(Org org, Instant createdAt, Role role) {}
