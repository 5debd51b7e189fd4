package dev.stele.cli;

import dev.stele.blob.BlobStore;
import dev.stele.blob.FilesystemBlobStore;
import dev.stele.repo.RepositoryExistsException;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Maps what the user gave as {@code --repo} to a blob store. A plain path (or {@code file://} URL)
 * is a directory on the local filesystem; {@code scheme://…} goes to the {@link BlobStoreProvider}
 * for that scheme found by {@link ServiceLoader}, and none found is one clear error.
 */
final class RepositoryLocation {
  private static final Pattern URL = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*)://.*");

  private final String spec;
  private final Map<String, String> options;

  RepositoryLocation(String spec) {
    this(spec, Map.of());
  }

  /**
   * {@code options} go to the provider of a {@code scheme://} location, see {@link
   * BlobStoreProvider}.
   */
  RepositoryLocation(String spec, Map<String, String> options) {
    if (spec == null || spec.isBlank()) {
      throw CliException.usage("no repository: give --repo or set STELE_REPO");
    }
    this.spec = spec;
    this.options = Map.copyOf(options);
  }

  /** The store of an existing repository. */
  BlobStore open(Clock clock) throws IOException {
    return open(clock, false);
  }

  /** The store for a new repository; a local directory must be missing or empty. */
  BlobStore create(Clock clock) throws IOException {
    return open(clock, true);
  }

  private BlobStore open(Clock clock, boolean creating) throws IOException {
    var m = URL.matcher(spec);
    if (m.matches()) {
      String scheme = m.group(1).toLowerCase(Locale.ROOT);
      if (!scheme.equals("file")) {
        return provider(scheme).open(uri(), options, creating);
      }
      return filesystem(Path.of(uri()), clock, creating);
    }
    return filesystem(Path.of(spec), clock, creating);
  }

  private static BlobStore filesystem(Path dir, Clock clock, boolean creating) throws IOException {
    if (creating && Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
      if (!Files.isDirectory(dir)) {
        throw new RepositoryExistsException(dir + " exists and is not a directory");
      }
      try (Stream<Path> entries = Files.list(dir)) {
        if (entries.findAny().isPresent()) {
          throw new RepositoryExistsException(
              dir + " is not empty: init only creates a repository in an empty directory");
        }
      }
    }
    return new FilesystemBlobStore(dir, clock);
  }

  private static BlobStoreProvider provider(String scheme) {
    for (BlobStoreProvider p : ServiceLoader.load(BlobStoreProvider.class)) {
      if (p.scheme().equals(scheme)) {
        return p;
      }
    }
    throw CliException.usage(scheme + " repositories are not available in this build");
  }

  private URI uri() {
    try {
      return new URI(spec);
    } catch (URISyntaxException e) {
      throw CliException.usage("not a repository URL: " + spec + " (" + e.getReason() + ")");
    }
  }

  @Override
  public String toString() {
    return spec;
  }
}
