package io.floe.domain;

/** A principal's role in an org. Admins may do everything in their org. */
public enum Role {
  MEMBER,
  ADMIN
}
