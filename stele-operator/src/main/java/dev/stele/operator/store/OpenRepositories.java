package dev.stele.operator.store;

import dev.stele.blob.BlobNotFoundException;
import dev.stele.repo.Repository;
import dev.stele.repo.RepositoryFormat;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.io.Closeable;
import java.io.IOException;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The repositories this process holds open, one per repository resource, so that the key is derived
 * (Argon2id) once per repository and process rather than on every reconcile pass. Each use gets a
 * {@link Repository#session session}: the shared store and key, with its own index, loaded afresh
 * by each backup and maintenance run as the maintenance rule requires.
 *
 * <p>An open repository is dropped, and opened anew on its next use, when what it was opened with
 * changes: one of its Secrets (the password, the location's credentials or CA certificate; watched
 * by an informer per namespace, which needs list and watch on Secrets), its location's spec or its
 * name (compared on every use, as callers read the location anyway), or the repository ID its
 * resource recorded; and when the repository's format blob is gone or differs (one read per use),
 * so a repository replaced or deleted behind the operator's back is noticed at once. A failed open
 * is not kept: the next use tries again. Where Secrets cannot be watched (RBAC), nothing is kept
 * and each use opens the repository as before.
 *
 * <p>Concurrency: safe for many threads. Opens of one repository are serialized (two reconcilers
 * asking at once derive the key once); uses of an open one are not. A dropped repository is closed
 * when its last session closes, never under a session still in use. Informer events arrive on the
 * informer's thread and only mark entries dropped.
 */
public final class OpenRepositories implements Closeable {
  private static final Logger LOG = LoggerFactory.getLogger(OpenRepositories.class);

  /**
   * What opening a repository depends on besides the repository itself.
   *
   * @param secrets the names of the Secrets read to open it, in the resource's namespace
   * @param resources what the resources say about it (the location's name and spec, the password's
   *     key), as any text that changes when they do
   */
  public record Dependencies(Set<String> secrets, String resources) {
    public Dependencies {
      secrets = Set.copyOf(secrets);
    }
  }

  /** Opens (or creates) a repository; whatever it throws reaches the caller unchanged. */
  @FunctionalInterface
  public interface Opening<X extends Exception> {
    Repository open() throws IOException, X;
  }

  private final boolean keep;
  private final Map<String, Entry> open = new ConcurrentHashMap<>();
  private final Map<String, Object> opening = new ConcurrentHashMap<>();
  private final Map<String, Watch> watches = new ConcurrentHashMap<>();
  private final Set<String> unwatched = ConcurrentHashMap.newKeySet();

  /** A registry for a long-lived process: repositories stay open. */
  public OpenRepositories() {
    this(true);
  }

  private OpenRepositories(boolean keep) {
    this.keep = keep;
  }

  /**
   * A registry that keeps nothing and watches nothing, for a process that opens a repository once
   * (a command): each open is a plain open, which closing closes.
   */
  public static OpenRepositories none() {
    return new OpenRepositories(false);
  }

  /**
   * A session on the repository {@code name} in {@code namespace}: the one open already if {@code
   * dependencies} are those it was opened with, none has changed since and it is the repository
   * {@code recordedId} names (null: any), else the one {@code opening} returns, kept for the next
   * use. Close the session after use; that never closes a repository another session still uses.
   */
  public <X extends Exception> Repository open(
      KubernetesClient client,
      String namespace,
      String name,
      Dependencies dependencies,
      @Nullable String recordedId,
      Opening<X> opening)
      throws IOException, X {
    if (!keep) {
      return opening.open();
    }
    String key = namespace + "/" + name;
    Repository session = reuse(key, dependencies, recordedId);
    if (session != null) {
      return session;
    }
    synchronized (this.opening.computeIfAbsent(key, k -> new Object())) {
      session = reuse(key, dependencies, recordedId);
      if (session != null) {
        return session;
      }
      Watch watch = watch(client, namespace);
      if (watch == null) {
        return opening.open(); // not kept: the caller's close closes it
      }
      Map<String, String> versions = watch.versions(dependencies.secrets());
      Repository repo = opening.open();
      try {
        versions.replaceAll((secret, v) -> v != null ? v : watch.version(secret));
        Entry entry = new Entry(repo, dependencies, versions, formatBytes(repo));
        drop(open.put(key, entry));
        return Objects.requireNonNull(entry.lease(), "a new entry is not retired");
      } catch (IOException | RuntimeException e) {
        repo.close();
        throw e;
      }
    }
  }

  /** Drops every open repository and stops watching; the registry can be used again. */
  @Override
  public void close() {
    open.keySet().forEach(key -> drop(open.remove(key)));
    watches.values().forEach(Watch::stop);
    watches.clear();
  }

  /** Drops the repository of a resource that is going away; sessions in use finish first. */
  public void close(String namespace, String name) {
    drop(open.remove(namespace + "/" + name));
  }

  /** How many repositories are open (for tests and metrics). */
  public int size() {
    return open.size();
  }

  private @Nullable Repository reuse(
      String key, Dependencies dependencies, @Nullable String recordedId) throws IOException {
    Entry entry = open.get(key);
    if (entry == null) {
      return null;
    }
    if (!entry.dependencies.equals(dependencies)
        || (recordedId != null && !recordedId.equals(entry.repo.format().id()))) {
      forget(key, entry);
      return null;
    }
    Repository session = entry.lease();
    if (session == null) {
      return null;
    }
    byte @Nullable [] format;
    try {
      format = formatBytes(session);
    } catch (BlobNotFoundException e) {
      format = null;
    } catch (IOException | RuntimeException e) {
      session.close();
      throw e;
    }
    if (!Arrays.equals(format, entry.format)) {
      session.close();
      forget(key, entry);
      return null;
    }
    return session;
  }

  private void forget(String key, Entry entry) {
    if (open.remove(key, entry)) {
      drop(entry);
    }
  }

  private static void drop(@Nullable Entry entry) {
    if (entry != null) {
      entry.retire();
    }
  }

  private static byte[] formatBytes(Repository repo) throws IOException {
    return repo.store().read(RepositoryFormat.BLOB);
  }

  /** The namespace's watch, started on first use; null if Secrets cannot be watched there. */
  private @Nullable Watch watch(KubernetesClient client, String namespace) {
    Watch watch = watches.get(namespace);
    if (watch != null) {
      return watch;
    }
    synchronized (watches) {
      watch = watches.get(namespace);
      if (watch == null) {
        try {
          watch = new Watch(client, namespace);
        } catch (KubernetesClientException e) {
          if (unwatched.add(namespace)) {
            LOG.warn(
                "cannot watch Secrets in {} ({}): repositories there are opened on every use",
                namespace,
                e.getMessage());
          }
          return null; // tried again on the next open, in case it was passing
        }
        watches.put(namespace, watch);
      }
      return watch;
    }
  }

  /**
   * A Secret changed or went ({@code version} null): drops the repositories in its namespace opened
   * with another version of it. Called by this registry's own watch, and by the reconcilers' Secret
   * event sources before they reconcile, so that the pass a Secret's change starts never reuses a
   * repository opened with its old content, whichever watch hears of the change first.
   */
  public void changed(String namespace, String secret, @Nullable String version) {
    open.forEach(
        (key, entry) -> {
          if (key.startsWith(namespace + "/")
              && entry.versions.containsKey(secret)
              && !Objects.equals(entry.versions.get(secret), version)) {
            LOG.info("Secret {}/{} changed: {} will be opened anew", namespace, secret, key);
            forget(key, entry);
          }
        });
  }

  /** One open repository and the sessions using it. */
  private static final class Entry {
    final Repository repo;
    final Dependencies dependencies;
    final Map<String, String> versions;
    final byte[] format;
    private int leases;
    private boolean retired;

    Entry(Repository repo, Dependencies dependencies, Map<String, String> versions, byte[] format) {
      this.repo = repo;
      this.dependencies = dependencies;
      this.versions = Collections.unmodifiableMap(new HashMap<>(versions)); // null: absent
      this.format = format;
    }

    /** A new session, or null once retired. */
    synchronized @Nullable Repository lease() {
      if (retired) {
        return null;
      }
      leases++;
      AtomicBoolean closed = new AtomicBoolean();
      return repo.session(
          () -> {
            if (closed.compareAndSet(false, true)) {
              release();
            }
          });
    }

    private synchronized void release() {
      leases--;
      closeIfDone();
    }

    synchronized void retire() {
      retired = true;
      closeIfDone();
    }

    private void closeIfDone() {
      if (retired && leases == 0) {
        try {
          repo.close();
        } catch (IOException | RuntimeException e) {
          LOG.warn("closing {}: {}", repo.store().describe(), e.getMessage());
        }
      }
    }
  }

  /** The Secrets of one namespace, watched. */
  private final class Watch {
    final KubernetesClient client;
    final String namespace;
    final SharedIndexInformer<Secret> informer;

    /**
     * Starts watching; returns once the informer has listed the Secrets.
     *
     * @throws KubernetesClientException if they cannot be listed or watched
     */
    Watch(KubernetesClient client, String namespace) {
      this.client = client;
      this.namespace = namespace;
      this.informer =
          client
              .secrets()
              .inNamespace(namespace)
              .inform(
                  new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(Secret s) {
                      changed(namespace, s.getMetadata().getName(), version(s));
                    }

                    @Override
                    public void onUpdate(Secret old, Secret s) {
                      changed(namespace, s.getMetadata().getName(), version(s));
                    }

                    @Override
                    public void onDelete(Secret s, boolean unknownFinalState) {
                      changed(namespace, s.getMetadata().getName(), null);
                    }
                  },
                  0);
    }

    /** The current version of each Secret (read now, not from the cache); null if absent. */
    Map<String, String> versions(Set<String> secrets) {
      Map<String, String> versions = new HashMap<>();
      for (String s : secrets) {
        versions.put(s, version(s));
      }
      return versions;
    }

    @Nullable String version(String secret) {
      return version(client.secrets().inNamespace(namespace).withName(secret).get());
    }

    private static @Nullable String version(@Nullable Secret s) {
      return s == null ? null : s.getMetadata().getResourceVersion();
    }

    void stop() {
      informer.stop();
    }
  }
}
