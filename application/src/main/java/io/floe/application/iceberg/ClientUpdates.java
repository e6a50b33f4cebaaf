package io.floe.application.iceberg;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;
import org.apache.iceberg.MetadataUpdate;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.exceptions.BadRequestException;
import org.apache.iceberg.view.ViewMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A client's metadata updates applied with iceberg-core, after the checks iceberg-core leaves to
 * its caller. Its builders accept a default partition spec or sort order that does not exist and
 * fail only while building, with a NullPointerException; they accept an {@code assign-uuid} that
 * is no UUID, or another table's, and write it into the metadata. Each such update is refused
 * here with a 400 naming it. A builder that still fails on what the client sent is a 400 as well:
 * the client's updates are the only input it has.
 */
public final class ClientUpdates {
  private static final Logger LOG = LoggerFactory.getLogger(ClientUpdates.class);
  /** The id that stands for the spec or sort order added last in the same change. */
  private static final int LAST_ADDED = -1;

  private ClientUpdates() {}

  /**
   * The table metadata {@code updates} make from what {@code start} builds on: {@code base}, or
   * nothing (null) for a table that does not exist yet.
   */
  public static TableMetadata applyToTable(TableMetadata base,
      Supplier<TableMetadata.Builder> start, List<MetadataUpdate> updates) {
    for (int i = 0; i < updates.size(); i++) {
      MetadataUpdate update = updates.get(i);
      Supplier<Optional<TableMetadata>> before = stateBefore(start, updates.subList(0, i));
      if (update instanceof MetadataUpdate.AssignUUID assign) {
        requireSameUuid(assign.uuid(), base == null ? null : base.uuid(), "table");
      } else if (update instanceof MetadataUpdate.SetDefaultPartitionSpec spec) {
        requireKnown(spec.specId(), before, state -> state.specsById().keySet(),
            "set-default-spec", "partition spec");
      } else if (update instanceof MetadataUpdate.SetDefaultSortOrder order) {
        requireKnown(order.sortOrderId(), before, state -> state.sortOrdersById().keySet(),
            "set-default-sort-order", "sort order");
      }
    }
    return built(() -> {
      TableMetadata.Builder builder = start.get();
      updates.forEach(update -> update.applyTo(builder));
      return builder.build();
    }, "table");
  }

  /** The view metadata {@code updates} make of {@code base}. */
  public static ViewMetadata applyToView(ViewMetadata base, List<MetadataUpdate> updates) {
    for (MetadataUpdate update : updates) {
      if (update instanceof MetadataUpdate.AssignUUID assign) {
        requireSameUuid(assign.uuid(), base.uuid(), "view");
      }
    }
    return built(() -> {
      ViewMetadata.Builder builder = ViewMetadata.buildFrom(base);
      updates.forEach(update -> update.applyTo(builder));
      return builder.build();
    }, "view");
  }

  /** An existing table or view keeps its uuid; a new one gets a well-formed one. */
  private static void requireSameUuid(String requested, String current, String what) {
    try {
      UUID.fromString(requested);
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new BadRequestException("assign-uuid: '%s' is not a UUID", requested);
    }
    if (current != null && !current.equalsIgnoreCase(requested)) {
      throw new BadRequestException("assign-uuid: a %s's uuid cannot change (it is %s)", what,
          current);
    }
  }

  /**
   * Refuses a default spec or sort order {@code id} (other than "the last added") that the
   * metadata before the update does not have.
   */
  private static void requireKnown(int id, Supplier<Optional<TableMetadata>> before,
      Function<TableMetadata, Set<Integer>> ids, String update, String what) {
    if (id != LAST_ADDED && before.get().filter(state -> !ids.apply(state).contains(id))
        .isPresent()) {
      throw new BadRequestException("%s: the table has no %s %s", update, what, id);
    }
  }

  /**
   * The metadata {@code earlier} updates make, built when asked for, to see which ids exist when
   * the next update applies; empty when those updates are not complete metadata on their own
   * (the first commit of a staged create), in which case building the whole change decides.
   */
  private static Supplier<Optional<TableMetadata>> stateBefore(
      Supplier<TableMetadata.Builder> start, List<MetadataUpdate> earlier) {
    return () -> {
      try {
        TableMetadata.Builder builder = start.get();
        earlier.forEach(update -> update.applyTo(builder));
        return Optional.ofNullable(builder.build());
      } catch (RuntimeException e) {
        return Optional.empty();
      }
    };
  }

  /**
   * Builds what the client's updates describe. iceberg-core reports most invalid updates with
   * its own exceptions (400s already); the rest surface as the builder's internal failures.
   */
  private static <T> T built(Supplier<T> build, String what) {
    try {
      return build.get();
    } catch (NullPointerException | IllegalStateException | IndexOutOfBoundsException
        | ClassCastException e) {
      LOG.debug("iceberg-core could not build the {} metadata a client described", what, e);
      throw new BadRequestException("The updates do not describe valid %s metadata", what);
    }
  }
}
