package io.floe.adapters.icechunk.zarr;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zarr.zarrjava.store.Store;
import dev.zarr.zarrjava.store.StoreHandle;
import io.floe.adapters.icechunk.engine.ReadSession;
import io.floe.adapters.icechunk.engine.WritableSession;
import io.floe.adapters.icechunk.engine.ZarrMetadata;
import io.floe.adapters.icechunk.format.ChunkIndex;
import io.floe.adapters.icechunk.format.NodeSnapshot;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A zarr-java {@link Store} over an Icechunk session: {@code .../zarr.json} keys are node
 * metadata, other keys are chunks of the array whose path prefixes them (decoded with that
 * array's chunk key encoding). Over a {@link WritableSession} writes and deletes go into the
 * session, to be committed with it; over a read-only session they are refused.
 */
public final class IcechunkZarrStore implements Store.ListableStore {
  private static final String METADATA_KEY = "zarr.json";

  private final ReadSession session;

  public IcechunkZarrStore(ReadSession session) {
    this.session = session;
  }

  @Override
  public boolean exists(String[] keys) {
    return get(keys) != null;
  }

  @Override
  public ByteBuffer get(String[] keys) {
    Optional<byte[]> data = read(keys);
    return data.map(ByteBuffer::wrap).orElse(null);
  }

  @Override
  public ByteBuffer get(String[] keys, long start) {
    return read(keys).map(b -> ByteBuffer.wrap(Arrays.copyOfRange(b, (int) start, b.length)))
        .orElse(null);
  }

  @Override
  public ByteBuffer get(String[] keys, long start, long end) {
    return read(keys).map(b -> ByteBuffer.wrap(Arrays.copyOfRange(b, (int) start,
        (int) Math.min(end, b.length)))).orElse(null);
  }

  private Optional<byte[]> read(String[] keys) {
    if (isMetadataKey(keys)) {
      return session.node(nodePath(keys, keys.length - 1)).map(NodeSnapshot::userData);
    }
    Optional<ChunkKey> chunk = chunkKey(keys);
    return chunk.flatMap(c -> session.chunk(c.arrayPath(), c.index()));
  }

  @Override
  public void set(String[] keys, ByteBuffer bytes) {
    WritableSession writable = writable(keys);
    ByteBuffer copy = bytes.duplicate();
    byte[] data = new byte[copy.remaining()];
    copy.get(data);
    if (isMetadataKey(keys)) {
      writable.setMetadata(nodePath(keys, keys.length - 1), data);
      return;
    }
    ChunkKey chunk = chunkKey(keys).orElseThrow(() -> new IllegalArgumentException(
        "'" + String.join("/", keys) + "' is neither a zarr.json nor a chunk of an array"));
    writable.setChunk(chunk.arrayPath(), chunk.index(), data);
  }

  @Override
  public void delete(String[] keys) {
    WritableSession writable = writable(keys);
    if (isMetadataKey(keys)) {
      String path = nodePath(keys, keys.length - 1);
      if (writable.node(path).isPresent()) {
        writable.deleteNode(path);
      }
      return;
    }
    Optional<ChunkKey> chunk = chunkKey(keys);
    chunk.ifPresent(c -> writable.deleteChunk(c.arrayPath(), c.index()));
  }

  @Override
  public StoreHandle resolve(String... keys) {
    return new StoreHandle(this, keys);
  }

  /** Direct children of a key prefix: child node names, {@code zarr.json}, chunk key heads. */
  @Override
  public Stream<String> list(String[] keys) {
    String prefix = nodePath(keys, keys.length);
    Set<String> out = new LinkedHashSet<>();
    session.node(prefix).ifPresent(n -> {
      out.add(METADATA_KEY);
      if (n.isArray()) {
        session.chunkRefs(n.path()).keySet().forEach(index ->
            out.add(chunkKeyOf(n, index).get(0)));
      }
    });
    for (NodeSnapshot n : session.nodes()) {
      String p = n.path();
      if (!p.equals(prefix) && (prefix.equals("/") ? p.startsWith("/") : p.startsWith(prefix + "/"))) {
        String rest = p.substring(prefix.equals("/") ? 1 : prefix.length() + 1);
        out.add(rest.split("/", 2)[0]);
      }
    }
    return out.stream();
  }

  @Override
  public String toString() {
    return "icechunk:" + session.snapshotId();
  }

  private WritableSession writable(String[] keys) {
    if (session instanceof WritableSession w) {
      return w;
    }
    throw new UnsupportedOperationException("cannot write '" + String.join("/", keys)
        + "': this store reads snapshot " + session.snapshotId() + " read-only");
  }

  private static boolean isMetadataKey(String[] keys) {
    return keys.length > 0 && keys[keys.length - 1].equals(METADATA_KEY);
  }

  private static String nodePath(String[] keys, int count) {
    List<String> parts = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      for (String p : keys[i].split("/")) {
        if (!p.isEmpty()) {
          parts.add(p);
        }
      }
    }
    return "/" + String.join("/", parts);
  }

  private record ChunkKey(String arrayPath, ChunkIndex index) {}

  /** Finds the array whose path is the longest prefix of the key and decodes the rest. */
  private Optional<ChunkKey> chunkKey(String[] keys) {
    List<String> parts = new ArrayList<>();
    for (String k : keys) {
      parts.addAll(Arrays.asList(k.split("/")));
    }
    parts.removeIf(String::isEmpty);
    for (int split = parts.size() - 1; split >= 0; split--) {
      String path = "/" + String.join("/", parts.subList(0, split));
      Optional<NodeSnapshot> node = session.node(path);
      if (node.isPresent()) {
        if (!node.get().isArray()) {
          return Optional.empty();
        }
        return decode(node.get(), String.join("/", parts.subList(split, parts.size())))
            .map(index -> new ChunkKey(node.get().path(), index));
      }
    }
    return Optional.empty();
  }

  private static Optional<ChunkIndex> decode(NodeSnapshot array, String rest) {
    Encoding e = Encoding.of(array);
    String body = rest;
    if (e.defaultName) {
      if (body.equals("c")) {
        return Optional.of(ChunkIndex.of());
      }
      if (!body.startsWith("c" + e.separator)) {
        return Optional.empty();
      }
      body = body.substring(2);
    }
    String[] coords = body.split(java.util.regex.Pattern.quote(e.separator), -1);
    if (!e.defaultName && array.shape().isEmpty() && body.equals("0")) {
      return Optional.of(ChunkIndex.of());
    }
    if (coords.length != array.shape().size()) {
      return Optional.empty();
    }
    long[] index = new long[coords.length];
    try {
      for (int i = 0; i < coords.length; i++) {
        index[i] = Long.parseLong(coords[i]);
      }
    } catch (NumberFormatException ex) {
      return Optional.empty();
    }
    return Optional.of(new ChunkIndex(index));
  }

  private static List<String> chunkKeyOf(NodeSnapshot array, ChunkIndex index) {
    Encoding e = Encoding.of(array);
    StringBuilder s = new StringBuilder(e.defaultName ? "c" : "");
    for (int i = 0; i < index.rank(); i++) {
      if (s.length() > 0) {
        s.append(e.separator);
      }
      s.append(index.get(i));
    }
    if (s.length() == 0) {
      s.append('0');
    }
    return Arrays.asList(s.toString().split("/"));
  }

  /** The array's chunk key encoding: "default" (c prefix) or "v2", and its separator. */
  private record Encoding(boolean defaultName, String separator) {
    static Encoding of(NodeSnapshot array) {
      JsonNode json = ZarrMetadata.parse(array.path(), array.userData()).json();
      JsonNode cke = json.path("chunk_key_encoding");
      boolean isDefault = !"v2".equals(cke.path("name").asText("default"));
      String separator = cke.path("configuration").path("separator").asText(isDefault ? "/" : ".");
      return new Encoding(isDefault, separator);
    }
  }
}
