package dev.stele.operator.kube;

import dev.stele.operator.store.OpenRepositories;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Secret;
import io.javaoperatorsdk.operator.api.config.informer.InformerEventSourceConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.EventSourceContext;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.informer.InformerEventSource;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The event source that makes a change of a Secret take effect at once: every resource of the
 * controller that names the Secret (as {@code secrets} says) is reconciled when it is created,
 * changed or deleted, instead of at the next periodic look. Secrets are watched in the controller's
 * namespaces only (the operator's, in production: list and watch on Secrets there).
 *
 * <p>Before the resources are queued, the repositories this process opened with the Secret's old
 * content are dropped ({@link OpenRepositories#changed}), so the pass that follows opens them anew
 * whichever watch, this one or the registry's own, hears of the change first.
 */
public final class SecretTriggers {
  private SecretTriggers() {}

  /**
   * The source for a controller of {@code P}; adds the index {@code index} to its primary cache.
   *
   * @param secrets the names of the Secrets a resource depends on, in its own namespace
   */
  public static <P extends HasMetadata> InformerEventSource<Secret, P> of(
      EventSourceContext<P> context,
      Class<P> type,
      String index,
      Function<P, Collection<String>> secrets,
      OpenRepositories repositories) {
    context
        .getPrimaryCache()
        .addIndexer(
            index,
            r ->
                secrets.apply(r).stream()
                    .map(name -> key(r.getMetadata().getNamespace(), name))
                    .toList());
    var config =
        InformerEventSourceConfiguration.from(Secret.class, type)
            .withName("secrets")
            .withNamespacesInheritedFromController()
            // The filters see each event before it is mapped and queued; they let every one pass.
            .withOnAddFilter(s -> dropOpened(repositories, s, false))
            .withOnUpdateFilter((old, s) -> dropOpened(repositories, s, false))
            .withOnDeleteFilter((s, unknown) -> dropOpened(repositories, s, true))
            .withSecondaryToPrimaryMapper(
                (Secret s) ->
                    primaries(
                        context,
                        index,
                        key(s.getMetadata().getNamespace(), s.getMetadata().getName())))
            .build();
    return new InformerEventSource<>(config, context);
  }

  private static boolean dropOpened(OpenRepositories repositories, Secret s, boolean deleted) {
    repositories.changed(
        s.getMetadata().getNamespace(),
        s.getMetadata().getName(),
        deleted ? null : s.getMetadata().getResourceVersion());
    return true;
  }

  private static <P extends HasMetadata> Set<ResourceID> primaries(
      EventSourceContext<P> context, String index, String key) {
    List<P> named = context.getPrimaryCache().byIndex(index, key);
    return named.stream().map(ResourceID::fromResource).collect(Collectors.toSet());
  }

  private static String key(String namespace, String name) {
    return namespace + "/" + name;
  }
}
