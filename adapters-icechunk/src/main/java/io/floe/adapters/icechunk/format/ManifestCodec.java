package io.floe.adapters.icechunk.format;

import com.github.luben.zstd.ZstdInputStream;
import com.google.flatbuffers.FlatBufferBuilder;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/** Reads manifest files of spec 1 and 2 and writes spec-2 ones ({@code Manifest} of manifest.fbs). */
public final class ManifestCodec {
  // Manifest slots.
  private static final int ID = 0;
  private static final int ARRAYS = 1;
  private static final int LOCATION_DICTIONARY = 2;
  private static final int COMPRESSION_ALGORITHM = 3;
  // ChunkRef slots.
  private static final int REF_INDEX = 0;
  private static final int REF_INLINE = 1;
  private static final int REF_OFFSET = 2;
  private static final int REF_LENGTH = 3;
  private static final int REF_CHUNK_ID = 4;
  private static final int REF_LOCATION = 5;
  private static final int REF_ETAG = 6;
  private static final int REF_LAST_MODIFIED = 7;
  private static final int REF_COMPRESSED_LOCATION = 8;

  private ManifestCodec() {}

  public static Manifest decode(String objectName, byte[] file) {
    Envelope.Opened opened = Envelope.open(objectName, file, FileType.MANIFEST);
    try {
      FbTable t = FbTable.root(opened.payload());
      byte[] dictionary = t.bytes(LOCATION_DICTIONARY);
      SortedMap<NodeId, SortedMap<ChunkIndex, ChunkPayload>> arrays = new TreeMap<>();
      for (FbTable a : t.tables(ARRAYS)) {
        SortedMap<ChunkIndex, ChunkPayload> refs = new TreeMap<>();
        for (FbTable r : a.tables(1)) {
          refs.put(new ChunkIndex(r.u32s(REF_INDEX)), payload(objectName, r, dictionary));
        }
        arrays.put(new NodeId(a.struct(0, NodeId.LENGTH)), refs);
      }
      return new Manifest(new ObjectId12(t.struct(ID, ObjectId12.LENGTH)), arrays);
    } catch (RuntimeException e) {
      throw FbWrite.corrupt(objectName, "manifest", e);
    }
  }

  private static ChunkPayload payload(String objectName, FbTable r, byte[] dictionary) {
    if (r.has(REF_INLINE)) {
      return new ChunkPayload.Inline(r.bytes(REF_INLINE));
    }
    long offset = r.u64(REF_OFFSET, 0);
    long length = r.u64(REF_LENGTH, 0);
    byte[] chunkId = r.struct(REF_CHUNK_ID, ObjectId12.LENGTH);
    if (chunkId != null) {
      return new ChunkPayload.Native(new ObjectId12(chunkId), offset, length);
    }
    String location = r.string(REF_LOCATION);
    if (location == null && r.has(REF_COMPRESSED_LOCATION)) {
      location = decompressLocation(objectName, r.bytes(REF_COMPRESSED_LOCATION), dictionary);
    }
    if (location == null) {
      throw new IcechunkFormatException(objectName + ": chunk ref " + new ChunkIndex(
          r.u32s(REF_INDEX)) + " is neither inline, native nor virtual");
    }
    return new ChunkPayload.Virtual(location, offset, length, r.string(REF_ETAG),
        r.u32(REF_LAST_MODIFIED, 0));
  }

  private static String decompressLocation(String objectName, byte[] compressed, byte[] dict) {
    try (ZstdInputStream in = new ZstdInputStream(new ByteArrayInputStream(compressed))) {
      if (dict != null) {
        in.setDict(dict);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException | RuntimeException e) {
      throw new IcechunkFormatException(objectName
          + ": cannot decompress a virtual chunk location (" + e.getMessage() + ")", e);
    }
  }

  /** Writes a spec-2 manifest with uncompressed virtual locations (compression_algorithm 0). */
  public static byte[] encode(Manifest m) {
    FlatBufferBuilder b = new FlatBufferBuilder(4096);
    int[] arrayOffsets = new int[m.arrays().size()];
    int i = 0;
    for (Map.Entry<NodeId, SortedMap<ChunkIndex, ChunkPayload>> array : m.arrays().entrySet()) {
      int[] refOffsets = new int[array.getValue().size()];
      int j = 0;
      for (Map.Entry<ChunkIndex, ChunkPayload> ref : array.getValue().entrySet()) {
        refOffsets[j++] = encodeRef(b, ref.getKey(), ref.getValue());
      }
      int refs = FbWrite.tableVector(b, refOffsets);
      b.startTable(3);
      FbWrite.addIdStruct(b, 0, array.getKey().bytes());
      b.addOffset(1, refs, 0);
      arrayOffsets[i++] = b.endTable();
    }
    int arrays = FbWrite.tableVector(b, arrayOffsets);
    b.startTable(5);
    FbWrite.addIdStruct(b, ID, m.id().bytes());
    b.addOffset(ARRAYS, arrays, 0);
    // The schema default is 1 (dictionary-compressed); Floe stores plain locations.
    b.addByte(COMPRESSION_ALGORITHM, (byte) 0, 1);
    return Envelope.seal(SpecVersion.V2, FileType.MANIFEST, FbWrite.finish(b, b.endTable()));
  }

  private static int encodeRef(FlatBufferBuilder b, ChunkIndex index, ChunkPayload payload) {
    int indexVector = FbWrite.u32Vector(b, index.coords());
    if (payload instanceof ChunkPayload.Inline inline) {
        int data = b.createByteVector(inline.data());
        b.startTable(10);
        b.addOffset(REF_INDEX, indexVector, 0);
        b.addOffset(REF_INLINE, data, 0);
        return b.endTable();
    }
    if (payload instanceof ChunkPayload.Native nat) {
        b.startTable(10);
        b.addOffset(REF_INDEX, indexVector, 0);
        b.addLong(REF_OFFSET, nat.offset(), 0);
        b.addLong(REF_LENGTH, nat.length(), 0);
        FbWrite.addIdStruct(b, REF_CHUNK_ID, nat.chunkId().bytes());
        return b.endTable();
    }
    {
        ChunkPayload.Virtual v = (ChunkPayload.Virtual) payload;
        int location = b.createString(v.location());
        int etag = v.etag() == null ? 0 : b.createString(v.etag());
        b.startTable(10);
        b.addOffset(REF_INDEX, indexVector, 0);
        b.addLong(REF_OFFSET, v.offset(), 0);
        b.addLong(REF_LENGTH, v.length(), 0);
        b.addOffset(REF_LOCATION, location, 0);
        b.addOffset(REF_ETAG, etag, 0);
        b.addInt(REF_LAST_MODIFIED, (int) v.lastModified(), 0);
        return b.endTable();
    }
  }
}
