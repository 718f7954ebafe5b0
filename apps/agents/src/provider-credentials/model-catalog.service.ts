import { Injectable } from '@nestjs/common';
import { ListModelsQueryDto, ModelCatalogDto, ModelCatalogEntryDto } from '@vap/api';
import { AgentModelProvider, MODEL_PROVIDERS } from '@vap/messages';
import { ModelCard, modelPlugin, OFFLINE_MODEL_CARD } from '@vap/llm';
import { ModelAccess } from './model-access';
import { ModelAccount, modelProviderLabel, modelUnavailableReason } from './model-providers';

/** The providers the catalog lists, in its order: the offline engine, the cloud providers, the account's own server. */
const CATALOG_PROVIDERS: readonly AgentModelProvider[] = ['offline', ...MODEL_PROVIDERS, 'custom'];

/** A plugin's cards, or the offline engine's one. */
function cardsOf(provider: AgentModelProvider): { cards: readonly ModelCard[]; anyModel: boolean } {
  if (provider === 'offline') return { cards: [OFFLINE_MODEL_CARD], anyModel: false };
  const plugin = modelPlugin(provider);
  return plugin ? { cards: plugin.models, anyModel: !!plugin.anyModel } : { cards: [], anyModel: false };
}

/** One catalog entry as GET /models answers it. */
export function toModelCatalogEntry(
  provider: AgentModelProvider,
  card: ModelCard,
  anyModel: boolean,
  availability: ModelCatalogEntryDto['availability'],
): ModelCatalogEntryDto {
  const entry: ModelCatalogEntryDto = {
    provider,
    provider_label: modelProviderLabel(provider),
    model: card.id,
    label: card.label,
    any_model: anyModel,
    capabilities: {
      tools: card.tools,
      streaming: true,
      speech_to_speech: card.speechToSpeech,
      languages: [...card.languages],
    },
    context_window: card.contextWindow,
    parameters: {
      temperature_min: card.temperature.min,
      temperature_max: card.temperature.max,
      max_tokens_max: card.maxOutputTokens,
    },
    availability,
    unavailable_reason: availability ? null : modelUnavailableReason(provider, 'This model'),
  };
  if (card.speechToSpeech && card.voices?.length) entry.voices = [...card.voices];
  return entry;
}

/**
 * GET /models (agents.model.list): what an agent's `model` may name, as the plugins' catalogs say (the offline
 * engine first), each with how this account can use it now: its own key, the platform's for its tier, or not.
 */
@Injectable()
export class ModelCatalogService {
  constructor(private readonly access: ModelAccess) {}

  async list(partnerId: string, voiceTier: string, query: ListModelsQueryDto): Promise<ModelCatalogDto> {
    const account: ModelAccount = await this.access.accountOf(partnerId, voiceTier);
    const models = CATALOG_PROVIDERS.filter((p) => !query.provider || p === query.provider).flatMap(
      (provider) => {
        const { cards, anyModel } = cardsOf(provider);
        const availability = this.access.availability(provider, account);
        return cards.map((card) => toModelCatalogEntry(provider, card, anyModel, availability));
      },
    );
    return { models: query.available === true ? models.filter((m) => m.availability !== null) : models };
  }
}
