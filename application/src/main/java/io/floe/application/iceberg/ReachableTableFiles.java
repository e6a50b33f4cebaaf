package io.floe.application.iceberg;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.PartitionStatisticsFile;
import org.apache.iceberg.StatisticsFile;
import org.apache.iceberg.TableMetadata;
import org.apache.iceberg.io.FileIO;

/**
 * Every file a set of {@code metadata.json} versions keeps alive, read with iceberg-core's own
 * readers: each version itself, the earlier versions its metadata log names, and for each of its
 * snapshots the manifest list, the manifests, the data and delete files they hold live, and the
 * statistics files. Files named only by an earlier version of the log are not followed: a
 * version that expired a snapshot has given up its files, as Iceberg's own expiry does.
 *
 * <p>A file that cannot be read fails the walk: a collector must not decide on partial
 * knowledge. Manifests are shared between versions and read once.
 */
public final class ReachableTableFiles {
  private final FileIO io;
  private final MetadataLimits limits;
  private final Set<String> files = new HashSet<>();
  private final Set<String> readMetadata = new HashSet<>();
  private final Set<String> readManifests = new HashSet<>();

  private ReachableTableFiles(FileIO io, MetadataLimits limits) {
    this.io = io;
    this.limits = limits;
  }

  /**
   * The URIs of every file {@code metadataLocations} reach, as their metadata spells them; each
   * metadata file is read within {@code limits}.
   */
  public static Set<String> of(FileIO io, MetadataLimits limits,
      Collection<String> metadataLocations) {
    ReachableTableFiles walk = new ReachableTableFiles(io, limits);
    metadataLocations.forEach(walk::followVersion);
    return Set.copyOf(walk.files);
  }

  private void followVersion(String metadataLocation) {
    files.add(metadataLocation);
    if (!readMetadata.add(metadataLocation)) {
      return;
    }
    TableMetadata metadata = MetadataJson.readTable(io, metadataLocation, limits);
    metadata.previousFiles().forEach(entry -> files.add(entry.file()));
    metadata.statisticsFiles().stream().map(StatisticsFile::path).forEach(files::add);
    metadata.partitionStatisticsFiles().stream().map(PartitionStatisticsFile::path)
        .forEach(files::add);
    for (Snapshot snapshot : metadata.snapshots()) {
      if (snapshot.manifestListLocation() != null) {
        files.add(snapshot.manifestListLocation());
      }
      for (ManifestFile manifest : snapshot.allManifests(io)) {
        followManifest(manifest, metadata.specsById());
      }
    }
  }

  private void followManifest(ManifestFile manifest, Map<Integer, PartitionSpec> specs) {
    files.add(manifest.path());
    if (!readManifests.add(manifest.path())) {
      return;
    }
    Map<Integer, PartitionSpec> specsById = new HashMap<>(specs);
    try (ManifestReader<? extends ContentFile<?>> reader = switch (manifest.content()) {
      case DATA -> ManifestFiles.read(manifest, io, specsById);
      case DELETES -> ManifestFiles.readDeleteManifest(manifest, io, specsById);
    }) {
      // A reader yields the live entries: a file a manifest marks deleted is kept only by the
      // older snapshots whose manifests still hold it live.
      for (ContentFile<?> file : reader) {
        files.add(file.location());
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read manifest " + manifest.path(), e);
    }
  }
}
