package io.floe.application.port.out;

import java.util.UUID;

/** Identifiers and randomness, behind a port so tests can make them predictable. */
public interface IdGenerator {
  UUID newId();

  /** A uniformly random int in {@code [0, bound)} from a cryptographically strong source. */
  int randomBelow(int bound);

  /** {@code length} cryptographically strong random bytes, for secrets. */
  byte[] randomBytes(int length);
}
