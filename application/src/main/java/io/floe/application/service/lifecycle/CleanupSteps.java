package io.floe.application.service.lifecycle;

import java.util.Optional;
import java.util.UUID;

/**
 * What the cleanup of one kind of prefix owner does at each of {@link SoftDeleteCleanup}'s steps.
 *
 * @param <T> the owner
 */
public interface CleanupSteps<T> {
  /** The kind's name in logs and probe points: "namespace", "repo". */
  String kind();

  UUID id(T owner);

  /** How logs name the owner: its name and where its files are. */
  String describe(T owner);

  /** Step 1: gives up the owner's name, if it still holds it. */
  void releaseName(T owner);

  /** Step 2: deletes the owner's files, keeping any that something live still uses. */
  long empty(T owner);

  /** Step 3, in its transaction: a reason not to purge the owner yet, if there is one. */
  Optional<String> reasonToKeep(T owner);

  /** Step 3, in its transaction: releases every prefix the owner holds. */
  void releaseClaims(T owner);
}
