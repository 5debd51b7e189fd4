package dev.stele.operator.kube;

import dev.stele.k8s.api.ObjectReferences;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Records core/v1 Events on the resources the operator reconciles, so that {@code kubectl describe}
 * says what happened. Failing to record one is logged, never fatal.
 */
public final class Events {
  private static final Logger LOG = LoggerFactory.getLogger(Events.class);
  public static final String NORMAL = "Normal";
  public static final String WARNING = "Warning";

  private final KubernetesClient client;
  private final Clock clock;
  private final String component;
  private final @Nullable String host;

  public Events(KubernetesClient client, Clock clock) {
    this(client, clock, "stele-operator", null);
  }

  /** Events whose source is {@code component}, on {@code host} (a node's name, or null). */
  public Events(KubernetesClient client, Clock clock, String component, @Nullable String host) {
    this.client = client;
    this.clock = clock;
    this.component = component;
    this.host = host;
  }

  public void record(HasMetadata on, String type, String reason, String message) {
    String now = clock.instant().toString();
    var meta = on.getMetadata();
    try {
      client
          .v1()
          .events()
          .inNamespace(meta.getNamespace())
          .resource(
              new EventBuilder()
                  .withNewMetadata()
                  .withGenerateName(meta.getName() + ".")
                  .withNamespace(meta.getNamespace())
                  .endMetadata()
                  .withInvolvedObject(ObjectReferences.to(on))
                  .withType(type)
                  .withReason(reason)
                  .withMessage(message)
                  .withFirstTimestamp(now)
                  .withLastTimestamp(now)
                  .withCount(1)
                  .withNewSource()
                  .withComponent(component)
                  .withHost(host)
                  .endSource()
                  .build())
          .create();
    } catch (KubernetesClientException e) {
      LOG.warn("could not record event {} on {}: {}", reason, meta.getName(), e.getMessage());
    }
  }
}
