package dev.stele.server;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stele.k8s.api.SteleApi;
import dev.stele.repo.SnapshotManifest;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Who may see which snapshots: the access file ({@code spec.access} of the server's resource, as
 * the operator writes it), {@code {"admins": [...], "rules": [...]}}. Admins see every snapshot. A
 * rule allows its users a snapshot when every one of its non-empty fields matches; a user may read
 * what any of their rules allows, and append (create snapshots) where an Append rule allows it.
 * Fields no rule knows are refused when the file is read, so that a misspelt condition cannot
 * silently widen a rule. {@code limits} caps what the server sends a user, per second.
 */
record AccessRules(List<String> admins, List<Rule> rules, Map<String, Limit> limits) {
  private static final ObjectMapper MAPPER =
      new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

  /** What a rule grants. */
  enum Access {
    Read,
    Append
  }

  /**
   * One rule; every list is a set of alternatives, and every non-empty one must match.
   *
   * @param backups the Backup names a snapshot may carry ({@code stele.dev/backup-name}): the
   *     backup's manifest, its resources and its pod volumes
   * @param namespaces the pod namespaces ({@code stele.dev/pod-namespace}): pod-volume snapshots
   *     only, as a backup's manifest and resources hold every namespace it backed up
   * @param tags tags, one of which the snapshot carries
   * @param labels labels the snapshot carries, every one with this value
   * @param hosts host names the snapshot was taken on
   * @param paths absolute path prefixes, one of which holds one of the snapshot's paths
   */
  record Rule(
      List<String> users,
      Access access,
      List<String> backups,
      List<String> namespaces,
      List<String> tags,
      Map<String, String> labels,
      List<String> hosts,
      List<String> paths) {
    Rule {
      users = users == null ? List.of() : List.copyOf(users);
      access = access == null ? Access.Read : access;
      backups = backups == null ? List.of() : List.copyOf(backups);
      namespaces = namespaces == null ? List.of() : List.copyOf(namespaces);
      tags = tags == null ? List.of() : List.copyOf(tags);
      labels = labels == null ? Map.of() : Map.copyOf(labels);
      hosts = hosts == null ? List.of() : List.copyOf(hosts);
      paths = paths == null ? List.of() : List.copyOf(paths);
    }

    boolean matches(SnapshotManifest m) {
      Map<String, String> l = m.labels();
      return anyOf(backups, l.get(SteleApi.BACKUP_NAME_LABEL))
          && anyOf(namespaces, l.get(SteleApi.POD_NAMESPACE_LABEL))
          && (tags.isEmpty() || m.tags().stream().anyMatch(tags::contains))
          && labels.entrySet().stream().allMatch(e -> e.getValue().equals(l.get(e.getKey())))
          && anyOf(hosts, m.host())
          && (paths.isEmpty() || m.paths().stream().anyMatch(this::underAPrefix));
    }

    /**
     * Whether a snapshot created through the server stays inside this rule: it matches, and every
     * one of its paths (not only one) lies under the rule's prefixes.
     */
    boolean contains(SnapshotManifest m) {
      return matches(m) && (paths.isEmpty() || m.paths().stream().allMatch(this::underAPrefix));
    }

    private boolean underAPrefix(String path) {
      for (String prefix : paths) {
        String p = prefix.endsWith("/") ? prefix.substring(0, prefix.length() - 1) : prefix;
        if (p.isEmpty() || path.equals(p) || path.startsWith(p + "/")) {
          return true;
        }
      }
      return false;
    }

    private static boolean anyOf(List<String> allowed, @Nullable String value) {
      return allowed.isEmpty() || (value != null && allowed.contains(value));
    }
  }

  /**
   * A user's limits.
   *
   * @param downloadBytesPerSecond the most the server sends them per second, all their answers
   *     together; null: no limit
   */
  record Limit(@Nullable Long downloadBytesPerSecond) {
    Limit {
      if (downloadBytesPerSecond != null && downloadBytesPerSecond <= 0) {
        throw new IllegalArgumentException(
            "downloadBytesPerSecond must be positive, not " + downloadBytesPerSecond);
      }
    }
  }

  AccessRules {
    admins = admins == null ? List.of() : List.copyOf(admins);
    rules = rules == null ? List.of() : List.copyOf(rules);
    limits = limits == null ? Map.of() : Map.copyOf(limits);
  }

  /** The most the server sends {@code user} per second, or null for no limit. */
  @Nullable Long downloadLimit(String user) {
    Limit limit = limits.get(user);
    return limit == null ? null : limit.downloadBytesPerSecond();
  }

  static AccessRules read(Path file) throws IOException {
    try {
      return Objects.requireNonNull(MAPPER.readValue(Files.readAllBytes(file), AccessRules.class));
    } catch (com.fasterxml.jackson.core.JacksonException e) {
      throw new IOException(
          "access file " + file + " does not parse: " + e.getOriginalMessage(), e);
    }
  }

  boolean isAdmin(String user) {
    return admins.contains(user);
  }

  /** Whether {@code user} may read {@code snapshot}: an admin, or a rule of theirs allows it. */
  boolean mayRead(String user, SnapshotManifest snapshot) {
    return isAdmin(user)
        || rules.stream().anyMatch(r -> r.users().contains(user) && r.matches(snapshot));
  }

  /**
   * Whether {@code user} may create {@code snapshot} through the server: an admin, or an Append
   * rule of theirs {@linkplain Rule#contains contains} it.
   */
  boolean mayAppend(String user, SnapshotManifest snapshot) {
    return isAdmin(user)
        || rules.stream()
            .anyMatch(
                r ->
                    r.access() == Access.Append
                        && r.users().contains(user)
                        && r.contains(snapshot));
  }
}
