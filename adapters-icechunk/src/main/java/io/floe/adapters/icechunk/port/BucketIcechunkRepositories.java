package io.floe.adapters.icechunk.port;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.floe.adapters.icechunk.engine.CommitInfo;
import io.floe.adapters.icechunk.engine.IcechunkException;
import io.floe.adapters.icechunk.engine.IcechunkRepository;
import io.floe.adapters.icechunk.engine.ReadSession;
import io.floe.adapters.icechunk.engine.RefNames;
import io.floe.adapters.icechunk.format.NodeSnapshot;
import io.floe.adapters.icechunk.format.ObjectId12;
import io.floe.adapters.icechunk.icechest.IcechestTables;
import io.floe.adapters.icechunk.icechest.SnapshotTables;
import io.floe.application.port.out.BucketStorageProvider;
import io.floe.application.port.out.IcechunkRepositories;
import io.floe.domain.BucketConfig;
import io.floe.domain.RepoCommit;
import io.floe.domain.RepoNode;
import io.floe.domain.RepoRefs;
import io.floe.domain.RepoTables;
import io.floe.domain.StoragePath;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.function.Supplier;

/**
 * The application's view of Icechunk repositories, served by this module's pure-Java Icechunk on
 * the storage of each bucket. Translates this module's errors into the application's: missing
 * things become not-found, unreadable or unwritable repositories storage errors.
 */
public final class BucketIcechunkRepositories implements IcechunkRepositories {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final TypeReference<LinkedHashMap<String, Object>> JSON_OBJECT =
      new TypeReference<>() {};

  private final BucketStorageProvider storage;

  public BucketIcechunkRepositories(BucketStorageProvider storage) {
    this.storage = storage;
  }

  @Override
  public void create(BucketConfig bucket, StoragePath prefix, String markerName) {
    translated(() -> IcechunkRepository.create(BucketObjectStore.of(storage.open(bucket)), prefix,
        Set.of(markerName)));
  }

  @Override
  public RepoRefs refs(BucketConfig bucket, StoragePath prefix) {
    return translated(() -> {
      IcechunkRepository repository = open(bucket, prefix);
      return new RepoRefs(pointers(repository.branches()), pointers(repository.tags()));
    });
  }

  @Override
  public List<RepoCommit> log(BucketConfig bucket, StoragePath prefix, String ref, int limit) {
    return translated(() -> {
      IcechunkRepository repository = open(bucket, prefix);
      return repository.log(RefNames.resolve(repository, ref)).stream().limit(limit)
          .map(BucketIcechunkRepositories::toCommit).toList();
    });
  }

  @Override
  public RepoNode node(BucketConfig bucket, StoragePath prefix, String ref, String path) {
    return translated(() -> {
      IcechunkRepository repository = open(bucket, prefix);
      ReadSession session = repository.readonlySession(RefNames.resolve(repository, ref));
      NodeSnapshot node = session.requireNode(path);
      Map<String, Object> zarrJson = parseObject(node);
      zarrJson.remove("attributes");
      List<String> children = node.isArray() ? List.of()
          : session.children(node.path()).stream().map(NodeSnapshot::path).toList();
      return new RepoNode(node.path(), node.isArray() ? RepoNode.Kind.ARRAY : RepoNode.Kind.GROUP,
          session.attributes(node.path()), zarrJson, children);
    });
  }

  @Override
  public RepoTables tables(BucketConfig bucket, StoragePath prefix, String ref) {
    return translated(() -> {
      IcechunkRepository repository = open(bucket, prefix);
      SnapshotTables read = IcechestTables.read(repository, RefNames.resolve(repository, ref));
      return new RepoTables(read.tables().values().stream()
          .map(table -> new RepoTables.Table(table.name(), table.group(), table.location(),
              table.metadataLocation()))
          .toList(), read.problems().stream().map(Object::toString).toList());
    });
  }

  private IcechunkRepository open(BucketConfig bucket, StoragePath prefix) {
    return IcechunkRepository.open(BucketObjectStore.of(storage.open(bucket)), prefix);
  }

  private static List<RepoRefs.Pointer> pointers(SortedMap<String, ObjectId12> refs) {
    return refs.entrySet().stream()
        .map(ref -> new RepoRefs.Pointer(ref.getKey(), ref.getValue().toString())).toList();
  }

  private static RepoCommit toCommit(CommitInfo commit) {
    return new RepoCommit(commit.id().toString(),
        Optional.ofNullable(commit.parentId()).map(ObjectId12::toString), commit.message(),
        commit.flushedAt(), commit.metadata());
  }

  private static Map<String, Object> parseObject(NodeSnapshot node) {
    try {
      return JSON.readValue(node.userData(), JSON_OBJECT);
    } catch (IOException e) {
      throw new IcechunkException("the zarr.json of '" + node.path() + "' is not a JSON object: "
          + e.getMessage(), e);
    }
  }

  private static <T> T translated(Supplier<T> work) {
    return ApplicationErrors.translated(work);
  }
}
