package dev.stele.operator.kube;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ConditionBuilder;
import java.time.Instant;
import java.util.List;

/** Sets a condition in place, keeping its transition time while its status stays. */
public final class Conditions {
  private Conditions() {}

  public static void set(
      List<Condition> conditions,
      String type,
      boolean status,
      String reason,
      String message,
      long generation,
      Instant now) {
    String value = status ? "True" : "False";
    Condition old =
        conditions.stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    String since =
        old != null && value.equals(old.getStatus()) ? old.getLastTransitionTime() : now.toString();
    conditions.removeIf(c -> type.equals(c.getType()));
    conditions.add(
        new ConditionBuilder()
            .withType(type)
            .withStatus(value)
            .withReason(reason)
            .withMessage(message == null ? "" : message)
            .withObservedGeneration(generation)
            .withLastTransitionTime(since)
            .build());
  }
}
