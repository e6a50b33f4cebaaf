package io.floe.adapters.icechunk.format;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * One named value of commit or repository metadata, kept as its stored bytes (FlexBuffers in
 * spec 2, MessagePack in spec 1) so a rewrite of the repo file preserves it exactly.
 */
public record MetadataItem(String name, byte[] value) {

  public static List<MetadataItem> encodeV2(Map<String, ?> metadata) {
    return FlexJson.sortedEntries(metadata).stream()
        .map(e -> new MetadataItem(e.getKey(), FlexJson.encode(e.getValue())))
        .toList();
  }

  /**
   * The items as JSON-like values; a damaged value raises {@link IcechunkFormatException} naming
   * {@code where} (the object holding the items) and the item.
   */
  public static Map<String, Object> decode(List<MetadataItem> items, SpecVersion version,
      String where) {
    Map<String, Object> out = new TreeMap<>();
    for (MetadataItem item : items) {
      String itemWhere = where + ", metadata '" + item.name + "'";
      out.put(item.name, version == SpecVersion.V1 ? MsgPack.decode(itemWhere, item.value)
          : FlexJson.decode(itemWhere, item.value));
    }
    return out;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof MetadataItem other && name.equals(other.name)
        && Arrays.equals(value, other.value);
  }

  @Override
  public int hashCode() {
    return name.hashCode() * 31 + Arrays.hashCode(value);
  }
}
