package dev.stele.operator.backup;

import dev.stele.k8s.api.BackupSpec;
import dev.stele.k8s.api.LabelSelectors;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.client.dsl.FilterWatchListDeletable;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lists objects as a Backup's label selectors choose them, with each selector sent to the API
 * server, which evaluates {@code matchExpressions} itself: one list for {@code labelSelector} (or
 * none), or one list per entry of {@code orLabelSelectors}, merged without duplicates. The spec's
 * selectors are checked before the backup starts ({@link LabelSelectors#problem}).
 */
final class LabelListing {
  private final List<LabelSelector> alternatives;

  /** Lists everything, whatever its labels. */
  static final LabelListing ALL = new LabelListing(List.of());

  private LabelListing(List<LabelSelector> alternatives) {
    this.alternatives = alternatives;
  }

  /** Lists as the spec's {@code labelSelector} or {@code orLabelSelectors} choose. */
  static LabelListing of(BackupSpec spec) {
    return new LabelListing(LabelSelectors.alternatives(spec.labelSelector, spec.orLabelSelectors));
  }

  List<GenericKubernetesResource> list(
      FilterWatchListDeletable<
              GenericKubernetesResource,
              GenericKubernetesResourceList,
              Resource<GenericKubernetesResource>>
          objects) {
    if (alternatives.isEmpty()) {
      return objects.list().getItems();
    }
    Map<String, GenericKubernetesResource> found = new LinkedHashMap<>();
    for (LabelSelector selector : alternatives) {
      for (GenericKubernetesResource o : objects.withLabelSelector(selector).list().getItems()) {
        found.putIfAbsent(o.getMetadata().getNamespace() + "/" + o.getMetadata().getName(), o);
      }
    }
    return List.copyOf(found.values());
  }
}
