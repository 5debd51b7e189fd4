package dev.stele.operator.restore;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Waits until CustomResourceDefinitions report {@code Established=True}, as Velero does before it
 * restores their custom resources: until then the API server does not serve their types, and a
 * custom resource created too early fails with "the server could not find the requested resource".
 * The wait is bounded; a definition that is still not Established then is reported with what its
 * conditions say (a name conflict, most often).
 */
final class CrdReadiness {
  /** How long a restore waits for its definitions, by default: a real server takes seconds. */
  static final Duration TIMEOUT = Duration.ofMinutes(1);

  private static final Duration POLL = Duration.ofMillis(100);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ResourceDefinitionContext DEFINITIONS =
      new ResourceDefinitionContext.Builder()
          .withGroup("apiextensions.k8s.io")
          .withVersion("v1")
          .withPlural("customresourcedefinitions")
          .withKind("CustomResourceDefinition")
          .withNamespaced(false)
          .build();

  private CrdReadiness() {}

  /**
   * Waits up to {@code timeout} for every one of {@code names} to be Established; returns, for each
   * that is not, why (empty when all are).
   */
  static Map<String, String> await(KubernetesClient client, List<String> names, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    Map<String, String> waiting = new LinkedHashMap<>();
    names.forEach(n -> waiting.put(n, "it was not found"));
    while (true) {
      for (String name : new TreeSet<>(waiting.keySet())) {
        String why = notEstablished(client, name);
        if (why == null) {
          waiting.remove(name);
        } else {
          waiting.put(name, why);
        }
      }
      if (waiting.isEmpty() || System.nanoTime() - deadline >= 0) {
        return waiting;
      }
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return waiting;
      }
    }
  }

  /** Null if the definition is Established, else what stands in the way. */
  private static String notEstablished(KubernetesClient client, String name) {
    GenericKubernetesResource crd;
    try {
      crd = client.genericKubernetesResources(DEFINITIONS).withName(name).get();
    } catch (KubernetesClientException e) {
      return "it could not be read: " + ObjectRestorer.message(e);
    }
    if (crd == null) {
      return "it does not exist";
    }
    JsonNode conditions = JSON.valueToTree(crd).path("status").path("conditions");
    String why = null;
    for (JsonNode c : conditions) {
      String status = c.path("status").asText();
      if (c.path("type").asText().equals("Established") && status.equals("True")) {
        return null;
      }
      if (why == null && status.equals("False") && c.path("message").isTextual()) {
        why = c.path("type").asText() + " is False: " + c.path("message").asText();
      }
    }
    return why == null ? "it reports no Established condition" : why;
  }
}
